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
