/*
 * Client subclasses of the receiver's own type: a call of Widget.draw may reach what a
 * client subclass of a subtype of Widget inherits, also when no concrete library class
 * selects it (Framed is abstract) and, under RTA, when the library instantiates none.
 */
package libworld;

public abstract class Widget {
    protected Widget() {
    }

    public abstract void draw();

    public void paint() { // @reachable
        draw(); // @calls(libworld.Framed.draw) @!calls(libworld.Locked.draw) @calls[cha](libworld.Made.draw) @!calls[rta,level>=2](libworld.Made.draw)
    }
}

// Abstract, with no concrete subclass in the library: a client class D extends Framed
// inherits draw().
abstract class Framed extends Widget {
    protected Framed() {
    }

    public void draw() {
    }
}

// Abstract, with only a private constructor: no subclass outside its nest, and it
// has none inside.
abstract class Locked extends Widget {
    private Locked() {
    }

    public void draw() {
    }
}

// Concrete, but only the library can create it, and only from make(), which nothing
// calls: CHA assumes instances, RTA sees none (at level 2; at level 1 native code may
// call any constructor), and no client class extends it.
class Made extends Widget {
    private Made() {
    }

    public void draw() {
    }

    private static Widget make() { // @reachable[level=1] @!reachable[level>=2]
        return new Made();
    }
}
