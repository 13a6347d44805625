/*
 * Targets of the reflective sites of Main: public members (every level), and
 * package-private ones of package refl (accessible from Main at level 2).
 */
package refl;

public class Plugin {
    public static int COUNT;

    static {
        COUNT = 1;
    }

    public Plugin() {
    }

    public Plugin(int n) {
        COUNT = n;
    }

    public void run() {
    }

    public static void tick() {
        COUNT++;
    }

    // Targets for Main.invokeTyped, which passes a Plugin and a String. Method.invoke
    // converts each argument to its parameter's type or throws
    // IllegalArgumentException before calling anything:
    public static void takes(Plugin p, CharSequence s) { // a String is a CharSequence
    }

    public static void takesSub(Special p, Object s) { // the Plugin may be a Special
    }

    public static void refuses(Shape p, String s) { // a Plugin is never a Shape
    }

    public static void refusesPrim(int p, String s) { // a Plugin does not unbox to an int
    }

    public static void refusesFinal(Plugin p, Runnable s) { // String is final and no Runnable
    }

    static Object make(int n) {
        return n > 3 ? new Object() : "made";
    }
}

// Instantiated only by reflection: its package-private constructor is accessible from
// Main, so the fallback of Main's newInstance sites makes it instantiated under RTA at
// both levels.
class PkgOnly {
    PkgOnly() {
    }

    void internal() {
    }

    public String toString() {
        return "pkg";
    }
}

// A subclass of Plugin, never created.
class Special extends Plugin {
}

// A class loader that overrides loadClass.
class Loader extends ClassLoader {
    Loader() {
    }

    @Override
    public Class<?> loadClass(String name) throws ClassNotFoundException {
        return super.loadClass(name);
    }
}

// An abstract class with a public no-argument constructor: no reflective
// instantiation can run it.
abstract class Shape {
    public Shape() {
    }
}
