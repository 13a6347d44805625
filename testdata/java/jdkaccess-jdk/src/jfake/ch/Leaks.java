package jfake.ch;

import java.lang.reflect.Method;

import jfake.spi.Base;

// Indexed as the JDK's code: overrides whose Method leaves the class nest (a
// public method returns it; a public field keeps it). The analysis does not
// follow them beyond their nest: they are the JDK's overrides it lists as not
// modelled (resolve_access_jdk.go).
public class Leaks {
    public static Method SHARED;

    public static Method opened() throws NoSuchMethodException {
        Method m = Base.class.getDeclaredMethod("hidden");
        m.setAccessible(true);
        return m;
    }

    public static void share() throws NoSuchMethodException {
        Method m = Base.class.getDeclaredMethod("hidden");
        m.setAccessible(true);
        SHARED = m;
    }
}
