package flow;

import java.security.AccessController;
import java.security.PrivilegedAction;
import java.util.ArrayList;
import java.util.List;

// why --method explains how a dispatch's receiver came to hold the class whose
// method it reaches (TestWhyFlow): the values it flowed through, back to its
// creation or to a value that holds any object.
public class Main {
    interface Shape { double area(); }
    static class Circle implements Shape { public double area() { return 3; } }
    static class Square implements Shape { public double area() { return 4; } }
    static class Triangle implements Shape { public double area() { return 5; } }
    static class Act implements PrivilegedAction<Object> { public Object run() { return "act"; } }

    static Shape kept;

    public static void main(String[] args) {
        kept = new Circle();                 // line 21: the Circle kept reaches draw through the field
        Shape[] shapes = { new Square() };   // line 22: the Square reaches drawFirst through the array
        draw(kept);                          // line 23
        drawFirst(shapes);                   // line 24
        if (args.length > 1) {
            escaping();                      // line 26 (needs the JDK: ArrayList)
            privileged();                    // line 27 (needs the JDK: AccessController)
        }
    }

    static double draw(Shape s) {
        return s.area();                     // line 32: Circle.area only
    }

    static double drawFirst(Shape[] ss) {
        return ss[0].area();                 // line 36: Square.area only
    }

    static double escaping() {
        List<Shape> l = new ArrayList<>();   // line 40
        l.add(new Triangle());
        System.identityHashCode(l);          // line 42: native code gets the list, which may store anything in it
        return l.get(0).area();              // line 43: any Shape the program creates, Triangle among them
    }

    @SuppressWarnings("removal")
    static Object privileged() {
        PrivilegedAction<Object> a = new Act(); // line 48
        return AccessController.doPrivileged(a); // line 49: runs Act.run on a
    }

    interface Hook { void run(); }

    static int counter;

    static {
        hooks();
    }

    static void hooks() {
        Hook[] all = { () -> counter++ };    // line 61: the lambda reaches the loop through the array
        for (Hook h : all) {
            h.run();                         // line 63: lambda$hooks$0 only
        }
    }

    // why --site (TestWhySite), with --entry flow.Main.sites: the targets of
    // the calls at a line, and how the receiver came to hold each object that
    // selects one.
    public static Shape shared;

    static double sites(boolean b) {
        shared = new Triangle();                   // line 73
        Shape s = b ? new Circle() : new Square(); // line 74
        double d = s.area();                       // line 75: Circle.area and Square.area, each created at line 74
        return d + shared.area();                  // line 76: the Triangle of line 73, and with the JDK any Shape (public field)
    }

    // why --site flow.Main.lambdas:LINE, with --entry flow.Main.lambdas: a call on
    // the line of a lambda runs in the lambda's body (lambda$lambdas$N), which
    // --site searches too.
    static void lambdas() {
        Shape s = new Circle();
        Runnable r = () -> s.area();               // line 84: Circle.area, on the s the lambda captured
        r.run();
    }

    // why --site flow.Main.caught:LINE --algo xta, with --entry flow.Main.caught:
    // XTA makes exceptions global, since its sets do not follow the call stack.
    static String caught(boolean b) {
        try {
            if (b) throw new Oops(); else throw new Ouch();
        } catch (RuntimeException e) {
            return e.getMessage();                 // line 94: Oops's and Ouch's getMessage, among others
        }
    }

    static class Oops extends RuntimeException { public String getMessage() { return "oops"; } }
    static class Ouch extends RuntimeException { public String getMessage() { return "ouch"; } }

    // why --site flow.Main.views:108 (with the JDK), with --entry flow.Main.views: a
    // HashSet's iterator is a view whose class the JDK's code does not tell
    // (HashSet.iterator returns its map's key set's iterator), so it.hasNext()
    // reaches every Iterator the program creates, and the chain names the set.
    static int views(List<Shape> in) {
        java.util.Set<Shape> set = new java.util.HashSet<>(in);                   // line 106
        int n = 0;
        for (java.util.Iterator<Shape> it = set.iterator(); it.hasNext(); n++) { // line 108
            it.next();
        }
        return n;
    }
}
