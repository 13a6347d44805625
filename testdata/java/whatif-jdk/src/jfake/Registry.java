/*
 * The JDK's side of the what-if test (analysis/whatif_test.go, TestWithoutJDKFallbacks):
 * the test indexes these classes as the JDK's, beside the mini JDK.
 */
package jfake;

public final class Registry {
    private Registry() {}

    // The class name is the program's first argument, which nothing tells: at every
    // level this loads the class through the conservative set (every <clinit>) and
    // instantiates it through another (every public no-argument constructor, among
    // them Plugin's). Registry.boot is reached without any of the JDK's fallbacks, so
    // the run without them lists both sites.
    public static Object boot(String[] args) throws ReflectiveOperationException {
        return Class.forName(args[0]).newInstance();
    }
}
