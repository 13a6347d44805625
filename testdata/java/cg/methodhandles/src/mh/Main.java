/*
 * Method handles. A lookup (Lookup.find*) whose class, name and type arguments are
 * literals is resolved at every level, and so is an invocation whose handle comes
 * from such lookups in the same method (through bindTo and casts too): findVirtual
 * dispatches on the class, findStatic calls the static method and initialises its
 * class, findConstructor creates the class, findSpecial calls exactly the named
 * method. Other invocations fall back to the level's set for method handles; at
 * Encap-Respect that also holds the targets of every reachable lookup, since a handle
 * created in one class may be invoked in another (Invoker below).
 */
package mh;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import mh.q.Invoker;

public class Main {
    public static void main(String[] args) throws Throwable {
        MethodHandles.Lookup l = MethodHandles.lookup();
        Greeter g = args.length > 0 ? new LoudGreeter() : new Greeter();

        MethodHandle mv = l.findVirtual(Greeter.class, "greet", MethodType.methodType(String.class, String.class)); // @site(resolved, methodHandle)
        String s = (String) mv.invokeExact(g, "x"); // @site(resolved, methodHandle) @calls(mh.Greeter.greet, mh.LoudGreeter.greet) @!calls(mh.Greeter.other()Ljava/lang/String;, mh.Main.twice)
        // QuietGreeter overrides greet but is never created:
        // @calls[cha](mh.QuietGreeter.greet) @!calls[rta,level=2](mh.QuietGreeter.greet)

        MethodHandle ms = l.findStatic(Main.class, "twice", MethodType.methodType(int.class, int.class)); // @site(resolved, methodHandle)
        int n = (int) ms.invokeExact(21); // @site(resolved, methodHandle) @calls(mh.Main.twice) @!calls(mh.Main.thrice, mh.Greeter.greet)

        MethodHandle mu = l.findStatic(Util.class, "help", MethodType.methodType(void.class));
        mu.invoke(); // @site(resolved, methodHandle) @calls(mh.Util.help, mh.Util.<clinit>)

        MethodHandle mc = l.findConstructor(Greeter.class, MethodType.methodType(void.class, String.class));
        Object made = mc.invoke("hi"); // @site(resolved, methodHandle) @calls(mh.Greeter.<init>(Ljava/lang/String;)V) @!calls(mh.Greeter.<init>()V)

        // The type is not known here: the name alone selects both overloads.
        MethodType t = pick(args.length);
        MethodHandle mo = l.findVirtual(Greeter.class, "other", t); // @site(resolved, methodHandle)
        mo.invoke(g); // @site(resolved, methodHandle) @calls(mh.Greeter.other()Ljava/lang/String;, mh.Greeter.other(I)Ljava/lang/String;) @!calls(mh.Greeter.greet)

        // bindTo and a cast keep the target.
        Object bound = mv.bindTo(g);
        MethodHandle mb = (MethodHandle) bound;
        mb.invoke("y"); // @site(resolved, methodHandle) @calls(mh.Greeter.greet, mh.LoudGreeter.greet)

        // Two lookups reach the same invocation.
        MethodHandle either = args.length > 1 ? ms : l.findStatic(Main.class, "thrice", MethodType.methodType(int.class, int.class));
        int k = (int) either.invokeExact(2); // @site(resolved, methodHandle) @calls(mh.Main.twice, mh.Main.thrice)

        // A static helper's return is followed into its code: its lookup.
        MethodHandle helped = args.length > 2 ? ms : helperHandle();
        int j = (int) helped.invokeExact(3); // @site(resolved, methodHandle) @calls(mh.Main.twice, mh.Main.thrice)

        // One definition is a lookup, the other a field others may write: partially resolved.
        MethodHandle some = args.length > 3 ? ms : shared;
        int j2 = (int) some.invokeExact(4); // @site(partial, methodHandle) @calls(mh.Main.twice, mh.q.Secret.pub)

        new LoudGreeter().viaSuper(l);
        find(l, Greeter.class, args[0], t);
        mh.q.Secret.lookedUp(mh.q.Secret.class);

        // A handle to a private method, invoked in another package's class.
        Invoker.call(l.findStatic(Main.class, "hiddenTarget", MethodType.methodType(void.class)));
        System.out.println(s + n + made + k + j);
    }

    static MethodType pick(int n) {
        return n > 3 ? MethodType.methodType(String.class) : MethodType.methodType(String.class, int.class);
    }

    // Any class of the package may store a handle here.
    static MethodHandle shared;

    static MethodHandle helperHandle() throws Exception {
        return MethodHandles.lookup().findStatic(Main.class, "thrice", MethodType.methodType(int.class, int.class));
    }

    // Lookup arguments that are not literals: the lookup is unresolved.
    public static MethodHandle find(MethodHandles.Lookup l, Class<?> c, String name, MethodType t) throws Exception {
        return l.findVirtual(c, name, t); // @site(unresolved, methodHandle)
    }

    static int twice(int x) {
        return 2 * x;
    }

    static int thrice(int x) {
        return 3 * x;
    }

    private static void hiddenTarget() {
    }
}

class Greeter {
    Greeter() {
    }

    Greeter(String s) {
    }

    String greet(String s) {
        return "hello " + s;
    }

    String other() {
        return "";
    }

    String other(int n) {
        return "" + n;
    }
}

class LoudGreeter extends Greeter {
    LoudGreeter() {
    }

    String greet(String s) {
        return "HELLO " + s;
    }

    // findSpecial: exactly Greeter.greet, as invokespecial from LoudGreeter would call it.
    void viaSuper(MethodHandles.Lookup unused) throws Throwable {
        MethodType mt = MethodType.methodType(String.class, String.class);
        MethodHandle sup = MethodHandles.lookup().findSpecial(Greeter.class, "greet", mt, LoudGreeter.class); // @site(resolved, methodHandle)
        String r = (String) sup.invokeExact(this, "z"); // @site(resolved, methodHandle) @calls(mh.Greeter.greet) @!calls(mh.LoudGreeter.greet)
        System.out.println(r);
    }
}

class Util {
    static int state;

    static {
        state = 1;
    }

    static void help() {
    }
}
