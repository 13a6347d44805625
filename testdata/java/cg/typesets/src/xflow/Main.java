/*
 * XTA (Tip and Palsberg): a type set per method and per field. A virtual call sees
 * only the classes in its own method's set: those the method creates, receives as
 * arguments (filtered by the parameter types), gets back from its callees (filtered by
 * the return type) and reads from fields it reads. RTA sees every class created
 * anywhere, so every positive below holds for all algorithms and each negative is for
 * XTA only. Every Shape is created in exactly one method:
 *   Circle in circles, Square in squares, Triangle in makeTriangle, Pentagon in fill,
 *   Hexagon in captured.
 */
// @levels(2,6) @algos(cha,rta,xta)
package xflow;

public class Main {
    public static void main(String[] args) {
        circles();
        squares();
        useTriangle();
        fill();
        captured();
    }

    // Creates a Circle and hands it to show: show's set gets Circle and nothing else.
    static void circles() {
        Shape s = new Circle();
        show(s);
    }

    // Only what its callers pass: circles passes a Circle.
    static void show(Shape s) {
        s.name(); // @calls(xflow.Circle.name) @!calls[xta](xflow.Square.name, xflow.Triangle.name, xflow.Pentagon.name, xflow.Hexagon.name) @calls[rta](xflow.Square.name, xflow.Triangle.name)
    }

    // Its own allocation only.
    static void squares() {
        Shape s = new Square();
        s.name(); // @calls(xflow.Square.name) @!calls[xta](xflow.Circle.name, xflow.Triangle.name, xflow.Pentagon.name)
    }

    // The set of a method's result flows back to its callers.
    static Shape makeTriangle() {
        return new Triangle();
    }

    static void useTriangle() {
        Shape t = makeTriangle();
        t.name(); // @calls(xflow.Triangle.name) @!calls[xta](xflow.Circle.name, xflow.Square.name, xflow.Hexagon.name)
    }

    // A field's set is what its writers put in: fill writes a Pentagon into
    // Holder.shape and nothing into Other.shape. read gets the Holder from its
    // caller (the parameter's type lets only Holder through, not the Pentagon) and
    // the Pentagon from the field it reads. Unsafe (and the field updaters,
    // VarHandles and reflection built on it) may store what it is given in fields
    // the bytecode does not name, but at these levels (Encap-Respect and above) the
    // JDK reaches a non-public field of this program only if the program hands out
    // access to its fields by name, which it never does.
    static void fill() {
        Holder h = new Holder();
        h.shape = new Pentagon();
        read(h);
        readOther(new Other());
    }

    static void read(Holder h) {
        h.shape.name(); // @calls(xflow.Pentagon.name) @!calls[xta](xflow.Circle.name, xflow.Square.name, xflow.Triangle.name, xflow.Hexagon.name)
    }

    // Other.shape is never written: no Shape reaches this call under XTA.
    static void readOther(Other o) {
        if (o.shape != null) {
            o.shape.name(); // @!calls[xta](xflow.Circle.name, xflow.Square.name, xflow.Triangle.name, xflow.Pentagon.name, xflow.Hexagon.name) @calls[rta](xflow.Pentagon.name)
        }
    }

    // A lambda's captured argument reaches its body: the body sees the Hexagon its
    // creator made. No negative: lambda objects are not in the type sets, so every
    // call of Runnable.run anywhere (the JDK's included) passes its set to the body.
    static void captured() {
        Shape h = new Hexagon();
        Runnable r = () -> h.name(); // @calls(xflow.Hexagon.name)
        r.run();
    }
}
