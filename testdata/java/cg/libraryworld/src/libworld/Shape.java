/*
 * Library mode is an open world: a client may declare
 *
 *     class D extends C implements Shape { }
 *
 * for any class C it can extend, and hand a D to the library. D does not declare
 * area(), so a call of Shape.area on a D selects (JVMS 5.4.6) the area() D inherits
 * from C, although C does not implement Shape: "colluding inheritance". Measure.of's
 * call below may therefore reach every public area() a client class can inherit,
 * and nothing else of the class path.
 *
 * The classes of this program are in package libworld, which a client can join (the
 * package is not sealed and not in a named module), so package-private classes and
 * constructors count as accessible; the JDK's packages cannot be joined.
 */
// @library
package libworld;

public interface Shape {
    double area();
}

class Measure {
    // Package-private: a client in package libworld can call it, so it is an entry.
    static double of(Shape s) { // @reachable
        return s.area() // colluding classes:
            // @calls(libworld.Plain.area, libworld.Pinned.area, libworld.Hidden.area, libworld.Closed.area)
            // a default method a client class gets by implementing a subinterface:
            // @calls(libworld.Scaled.area)
            // classes of the class path a client can extend (ArrayList is public, not
            // final, with public constructors): see Sizes.
            // @!calls(libworld.Fixed.area, libworld.Singleton.area, libworld.Secret.area, libworld.Pkg.area, libworld.Statics.area, libworld.Abs.area)
            // @!calls(libworld.Sealed.area, libworld.Sealed$Sub.area, libworld.Kind.area, libworld.Unrelated.area)
            ;
    }

    static int count(Sizes s) { // @reachable
        return s.size() // @calls(java.util.ArrayList.size)
            // ImmutableCollections' classes are package-private in java.util, part of
            // the named module java.base: no client class can extend them.
            ;
    }

    static void clear(Sizes s) { // @reachable
        s.clear(); // @calls(java.util.ArrayList.clear) @!calls(java.util.ImmutableCollections$AbstractImmutableCollection.clear)
    }
}

interface Sizes {
    int size();

    void clear();
}
