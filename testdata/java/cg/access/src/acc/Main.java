/*
 * Access overrides (issue 30): setAccessible(true), the static
 * AccessibleObject.setAccessible(array, true), trySetAccessible() and
 * MethodHandles.privateLookupIn void Encap-Respect for the reflective object they
 * reach. From level 2 on, a site whose Constructor, Method or Lookup such a call may
 * have reached also reaches the non-public members of other packages' classes
 * (acc.hidden): its fallback is every constructor or method, and where the value
 * analyses resolve it (a class literal, from Correct-Cast on) the resolved class's
 * non-public members are in. An object that never meets an override keeps
 * Encap-Respect: Kept's package-private constructor and Tgt.hush stay out.
 *
 * Each reflective object here is made by a getter in the method that uses it and
 * goes nowhere else, so the analysis can tell which override reached which object.
 * Run: java -cp <classes> acc.Main  prints OK.
 */
// @levels(2-6) @algos(cha)
package acc;

import acc.hidden.Arr;
import acc.hidden.Kept;
import acc.hidden.Lit;
import acc.hidden.Tgt;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

public class Main {
    public static void main(String[] args) throws Throwable {
        String name = args.length > 0 ? args[0] : "acc.hidden.Made";
        String handle = args.length > 1 ? args[1] : "quiet";
        byName(name);
        literal();
        array();
        Tgt t = Tgt.make();
        methods(t);
        handles(t, handle);
        System.out.println("OK");
    }

    // setAccessible(true) on a Constructor of a class the analysis cannot name (the
    // name comes from main's parameter at every level): the fallback is every
    // constructor, Made's package-private one of another package included.
    static Object byName(String name) throws Exception {
        Constructor<?> c = Class.forName(name).getDeclaredConstructor();
        c.setAccessible(true);
        return c.newInstance(); // @site(unresolved, newInstance) @calls(acc.hidden.Made.<init>, acc.hidden.Lit.<init>)
    }

    // A class literal: resolved from Correct-Cast on, to Lit's constructors, the
    // package-private one included because of the override. In the same method, a
    // Constructor no override reaches (Kept's) keeps Encap-Respect: its
    // package-private constructor is no target at any level from 2 (the call fails
    // at run time).
    static Object literal() throws Exception {
        Constructor<Lit> c = Lit.class.getDeclaredConstructor();
        Constructor<Kept> k = Kept.class.getDeclaredConstructor();
        c.setAccessible(true);
        Lit l = c.newInstance(); // @calls(acc.hidden.Lit.<init>) @site[level=2](unresolved, newInstance) @site[level>=3](resolved, newInstance)
        try {
            k.newInstance(); // @!calls(acc.hidden.Kept.<init>, acc.hidden.Lit.<init>, acc.hidden.Made.<init>)
        } catch (IllegalAccessException expected) {
            // Kept() is package-private in acc.hidden
        }
        return l;
    }

    // The static form on the array getDeclaredConstructors returns: its elements are
    // the objects overridden.
    static Object array() throws Exception {
        Constructor<?>[] cs = Arr.class.getDeclaredConstructors();
        AccessibleObject.setAccessible(cs, true);
        return cs[0].newInstance(); // @site(unresolved, newInstance) @calls(acc.hidden.Arr.<init>)
    }

    // trySetAccessible on a Method: Tgt.secret (private, another package) is called.
    // A Method the override does not reach (hush's) keeps Encap-Respect.
    static void methods(Tgt t) throws Exception {
        Method m = Tgt.class.getDeclaredMethod("secret");
        Method h = Tgt.class.getDeclaredMethod("hush");
        Method o = Tgt.class.getDeclaredMethod("other");
        if (!m.trySetAccessible()) {
            throw new IllegalStateException("no access to secret");
        }
        o.setAccessible(true);
        m.invoke(t); // @calls(acc.hidden.Tgt.secret)
        o.invoke(t); // @calls(acc.hidden.Tgt.other)
        try {
            h.invoke(t); // @!calls(acc.hidden.Tgt.hush, acc.hidden.Tgt.secret, acc.hidden.Tgt.other)
        } catch (IllegalAccessException expected) {
            // hush is private in acc.hidden
        }
    }

    // privateLookupIn gives a Lookup with private access to Tgt; the name of the
    // method is not a literal, so the lookup is not resolved, and its handle may
    // refer to a non-public member of any class: quiet is called.
    static void handles(Tgt t, String name) throws Throwable {
        MethodHandles.Lookup l = MethodHandles.privateLookupIn(Tgt.class, MethodHandles.lookup());
        MethodHandle mh = l.findVirtual(Tgt.class, name, MethodType.methodType(void.class)); // @site(unresolved, methodHandle)
        mh.invoke(t); // @calls(acc.hidden.Tgt.quiet)
    }
}
