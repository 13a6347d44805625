package example.core;

import org.apache.commons.lang3.StringUtils;

public class Names {
    public static String shout(String name) {
        return StringUtils.upperCase(name) + "!";
    }
}
