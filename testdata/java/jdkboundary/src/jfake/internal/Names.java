package jfake.internal;

/**
 * Indexed as the JDK's by TestClosedCallers, which says that this package is
 * internal to its module: code outside the JDK can neither call its public
 * methods nor reach them by reflection, so at Correct-JDK the callers below are
 * all of a static method's callers. Each method passes its parameter to
 * Class.forName; boot is the only caller, always with "jfake.internal.Names".
 */
public class Names {
    // Static: its callers are boot alone, so the site loads Names.
    public static Class<?> load(String name) throws Exception {
        return Class.forName(name);
    }

    // The test's JDK model says that the JVM calls it too: unknown.
    public static Class<?> upcalled(String name) throws Exception {
        return Class.forName(name);
    }

    // An instance method may override one of a package that is not internal, and
    // run where that one is called: unknown.
    public Class<?> virtual(String name) throws Exception {
        return Class.forName(name);
    }

    static void boot() throws Exception {
        load("jfake.internal.Names");
        upcalled("jfake.internal.Names");
        new Names().virtual("jfake.internal.Names");
    }
}
