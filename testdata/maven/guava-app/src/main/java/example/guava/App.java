package example.guava;

import com.google.common.base.Supplier;
import com.google.common.base.Suppliers;
import com.google.common.collect.ImmutableList;
import org.apache.commons.lang3.StringUtils;

/** A program whose calls go through Guava and Commons Lang. */
public class App {
    /**
     * Guava calls get() back: the supplier Suppliers.memoize returns asks its delegate
     * once, from its own get(). Nothing in this program calls Greeting.get() itself.
     */
    static final class Greeting implements Supplier<String> {
        @Override
        public String get() {
            return StringUtils.capitalize("hello"); // a library method the program calls
        }
    }

    /** A class named on the command line: an unresolved reflective site, the diagnostic the server's tests wait for. */
    static Object plugin(String name) throws ReflectiveOperationException {
        return Class.forName(name).getDeclaredConstructor().newInstance();
    }

    public static void main(String[] args) throws ReflectiveOperationException {
        if (args.length > 1) {
            System.out.println(plugin(args[1]));
        }
        Supplier<String> greeting = Suppliers.memoize(new Greeting());
        System.out.println(greeting.get());
        ImmutableList<String> names = ImmutableList.of("guava", "lang");
        System.out.println(StringUtils.join(names, ','));
    }
}
