/*
 * Correct-String (4) flow of Method objects, Class objects and names through fields,
 * helpers and String methods, beyond the cases of testdata/java/cg/resolution:
 *
 *  - Method objects kept in private and final fields (also when a store copies
 *    the same field of another object), and returned by helpers, resolve Method.invoke to the methods of their classes and names;
 *  - getMethod with a known name on a class the analysis does not know (an
 *    Object.getClass()) resolves invoke to the accessible methods of that name
 *    anywhere (the found method and every override share it), narrowed by the
 *    parameter types of a Class[] of class literals; getDeclaredMethod keeps only the
 *    methods Encap-Respect allows;
 *  - Class objects in static final fields, Class.getName() of known classes, and
 *    String.replace/trim/substring of known names;
 *  - a captured local in an anonymous class (a final synthetic field);
 *  - Lookup.ensureInitialized on a Class passed to a private method;
 *  - a Field object from getField with a known name on a class constant;
 *  - a name passed to the public constructor of a class that is not public: no
 *    other package can name the constructor, so its callers are those of its own
 *    package, as for a package-private method (Loader; Main's two calls).
 * Negative cases: a method name or a class name from a public parameter stays
 * unresolved, also through String.replace.
 *
 * Levels 1-2 fall back to the conservative sets, which contain every positive
 * expectation; the negative ones hold where resolution narrows.
 */
// @levels(all) @algos(cha)
package vflow;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;

public class Main {
    private Method start; // written only in viaField
    private final Method stop; // written only in the constructor
    private static final Class<?> KIND = Widget.class; // written only in <clinit>
    private Method action; // stores: a getMethod result, and another Main's action

    Main() throws Exception {
        stop = Widget.class.getMethod("stop");
    }

    public static void main(String[] args) throws Exception {
        Main m = new Main();
        Object w = args.length > 0 ? new Widget() : new Gadget();
        m.viaField(w);
        m.viaFinalField(w);
        m.copied(w, args.length > 3 ? m : null);
        unknownClass(w);
        declaredUnknown(w, args.length > 1);
        withParams(w);
        publicName(w, args[0]);
        helper(w);
        classInField();
        className();
        init(Gadget.class);
        replaced();
        publicReplaced(args[0]);
        captured(args.length > 2);
        ensure(Other.class);
        new Loader("vflow.Widget");
        new Loader("vflow.Other");
        Loader.load("vflow.Widget");
        fieldOf(new Widget());
    }

    // A Field object from getField with a known name on a class constant: from
    // Correct-String on, the site names Widget.count (a field access has no call
    // edges).
    static Object fieldOf(Widget w) throws Exception {
        return Widget.class.getField("count").get(w); // @site[level>=4](resolved, field) @site[level=3](unresolved, field)
    }

    // Not public: its public constructor's callers are in vflow. Its own method
    // below is public in a class that is not, yet a public subclass elsewhere
    // could inherit it, so its parameter stays unknown.
    static class Loader {
        public Loader(String name) throws Exception {
            Class.forName(name); // @site[level>=4](resolved, loading) @calls(vflow.Widget.<clinit>, vflow.Other.<clinit>) @!calls[level>=4](vflow.Gadget.<clinit>)
        }

        public static void load(String name) throws Exception {
            Class.forName(name); // @site(unresolved, loading) @calls(vflow.Gadget.<clinit>)
        }
    }

    // A private field holding a Method of an unknown class with a known name.
    void viaField(Object w) throws Exception {
        start = w.getClass().getMethod("start");
        start.invoke(w); // @site[level>=4](resolved, invoke) @site[level=3](unresolved, invoke) @calls(vflow.Widget.start, vflow.Gadget.start) @!calls[level>=4](vflow.Widget.stop, vflow.Other.halt)
    }

    // A final field holding Widget's stop().
    void viaFinalField(Object w) throws Exception {
        stop.invoke(w); // @site[level>=4](resolved, invoke) @calls(vflow.Widget.stop) @!calls[level>=4](vflow.Gadget.stop, vflow.Widget.start)
    }

    // A field whose stores include a copy of the same field of another object: the
    // copy adds no method the other store does not.
    void copied(Object w, Main other) throws Exception {
        if (other != null) {
            action = other.action;
        } else {
            action = w.getClass().getMethod("start");
        }
        action.invoke(w); // @site[level>=4](resolved, invoke) @calls(vflow.Widget.start) @!calls[level>=4](vflow.Widget.stop)
    }

    // The class is unknown, the name is not: every public start().
    public static void unknownClass(Object w) throws Exception {
        w.getClass().getMethod("start").invoke(w); // @site[level>=4](resolved, invoke) @calls(vflow.Widget.start, vflow.Gadget.start) @!calls[level>=4](vflow.Widget.stop)
    }

    // getDeclaredMethod finds methods of any access, but Encap-Respect still holds:
    // Widget's private secret() is not Main's to call, its package-private hidden()
    // is.
    public static void declaredUnknown(Object w, boolean b) throws Exception {
        String n = b ? "secret" : "hidden";
        w.getClass().getDeclaredMethod(n).invoke(w); // @site[level>=4](resolved, invoke) @calls(vflow.Widget.hidden) @calls[level=1](vflow.Widget.secret) @!calls[level>=2](vflow.Widget.secret) @!calls[level>=4](vflow.Widget.start)
    }

    // The Class[] of a class literal narrows the overloads.
    public static void withParams(Object w) throws Exception {
        w.getClass().getMethod("resize", int.class).invoke(w, 3); // @site[level>=4](resolved, invoke) @calls(vflow.Widget.resize(I)V, vflow.Gadget.resize(I)V) @!calls[level>=4](vflow.Widget.resize(Ljava/lang/String;)V)
    }

    // A name from a public parameter: unknown.
    public static void publicName(Object w, String name) throws Exception {
        w.getClass().getMethod(name).invoke(w); // @site(unresolved, invoke) @calls(vflow.Widget.stop, vflow.Other.halt)
    }

    // A private helper returning a Method: the union of its callers' classes and
    // names.
    private static Method find(Class<?> c, String name) throws Exception {
        return c.getMethod(name);
    }

    static void helper(Object w) throws Exception {
        find(Widget.class, "start").invoke(w); // @site[level>=4](resolved, invoke) @calls(vflow.Widget.start) @!calls[level>=4](vflow.Widget.resize, vflow.Other.halt)
        find(Other.class, "halt").invoke(new Other()); // @site[level>=4](resolved, invoke) @calls(vflow.Other.halt) @!calls[level>=4](vflow.Widget.resize)
    }

    // A Class object in a static final field.
    static Object classInField() throws Exception {
        return KIND.getDeclaredConstructor().newInstance(); // @site[level>=4](resolved, newInstance) @site[level=3](unresolved, newInstance) @calls(vflow.Widget.<init>) @!calls[level>=4](vflow.Gadget.<init>)
    }

    // Class.getName() of a class literal.
    static void className() throws Exception {
        Class.forName(Widget.class.getName()); // @site[level>=4](resolved, loading) @calls(vflow.Widget.<clinit>) @!calls[level>=4](vflow.Gadget.<clinit>)
    }

    // ... and of a Class passed to a private method.
    private static void init(Class<?> c) throws Exception {
        Class.forName(c.getName()); // @site[level>=4](resolved, loading) @calls(vflow.Gadget.<clinit>) @!calls[level>=4](vflow.Widget.<clinit>)
    }

    // String methods on known names.
    static void replaced() throws Exception {
        Class.forName("vflow/Gadget".replace('/', '.')); // @site[level>=4](resolved, loading) @calls(vflow.Gadget.<clinit>) @!calls[level>=4](vflow.Widget.<clinit>)
        Class.forName("  vflow.Widget ".trim()); // @site[level>=4](resolved, loading) @calls(vflow.Widget.<clinit>) @!calls[level>=4](vflow.Gadget.<clinit>)
        Class.forName("Lvflow.Other;".substring(1, 12)); // @site[level>=4](resolved, loading) @calls(vflow.Other.<clinit>) @!calls[level>=4](vflow.Gadget.<clinit>)
        Class.forName("vflow.Widget".replace("Widget", "Gadget")); // @site[level>=4](resolved, loading) @calls(vflow.Gadget.<clinit>) @!calls[level>=4](vflow.Widget.<clinit>)
    }

    // ... but not on a public parameter.
    public static void publicReplaced(String name) throws Exception {
        Class.forName(name.replace('/', '.')); // @site(unresolved, loading) @calls(vflow.Widget.<clinit>, vflow.Gadget.<clinit>)
    }

    // A local captured by an anonymous class lives in a final synthetic field,
    // written only by the class's constructor, whose only caller is here.
    static void captured(boolean b) {
        String n = b ? "vflow.Widget" : "vflow.Gadget";
        Runnable r = new Runnable() {
            public void run() {
                try {
                    Class.forName(n); // @site[level>=4](resolved, loading) @calls(vflow.Widget.<clinit>, vflow.Gadget.<clinit>) @!calls[level>=4](vflow.Other.<clinit>)
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        r.run();
    }

    // A Class passed to a private method that initialises it.
    private static void ensure(Class<?> c) throws Exception {
        MethodHandles.lookup().ensureInitialized(c); // @site[level>=4](resolved, loading) @calls(vflow.Other.<clinit>) @!calls[level>=4](vflow.Widget.<clinit>)
    }
}
