package example.app;

import com.google.common.base.Function;
import com.google.common.collect.Lists;
import example.core.Names;
import java.util.Arrays;
import java.util.List;

public class Main {
    /** Guava's transformed list calls apply() back as the list is read. */
    static final class Shout implements Function<String, String> {
        @Override
        public String apply(String s) {
            return Names.shout(s); // into the core module
        }
    }

    public static void main(String[] args) {
        List<String> loud = Lists.transform(Arrays.asList("core", "app"), new Shout());
        for (String s : loud) {
            System.out.println(s);
        }
    }
}
