/*
 * A candidate for Shape.area (see Shape.java and Classes.java). Closed is public so
 * that Open inherits area() itself: javac gives a public subclass of a package-private
 * class a public bridge for each inherited public method, which would be Open's own.
 */
package libworld;

// Only a private constructor: no class outside Closed's nest can call it, so no
// client class extends Closed directly; but Closed.Open, a nestmate, can, and a
// client can extend Open, whose area() is Closed's: the method is inherited from a
// superclass.
public class Closed {
    private Closed() {
    }

    public double area() {
        return 4;
    }

    public static class Open extends Closed {
        public Open() {
        }
    }
}
