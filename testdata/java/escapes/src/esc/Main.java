/*
 * Reflective objects and Lookups that the access-override rules
 * (analysis/resolve_access.go) must tell apart: each method below makes one object
 * that an override reaches (setAccessible(true), or a Lookup that Method.invoke of
 * privateLookupIn returns, as ByteBuddy did to stay loadable on Java 8). In the
 * methods named stays*, the object never leaves the method: it is kept in locals,
 * copied on the stack, cast, given to its own class's methods (Lookup.in's result
 * included). In those named leaves*, it leaves: stored in a field (directly or as
 * what Lookup.in derives from it), returned, or given to other code. An object that
 * leaves may be the one any site gets from elsewhere; one that stays may not.
 * analysis/resolve_access_test.go TestOverrideEscapes checks the analysis's answer
 * for each method by its name.
 *
 * Run: java -cp <classes> esc.Main  prints OK.
 */
package esc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;

public class Main {
    static Method saved;
    static MethodHandles.Lookup kept;

    public static void main(String[] args) throws Throwable {
        staysInLocals();
        staysOnTheStack();
        staysThroughIn();
        leavesToAField();
        leavesThroughIn();
        leavesAsResult().invoke(null);
        leavesAsArgument();
        if (saved == null || kept == null) {
            throw new IllegalStateException("nothing kept");
        }
        System.out.println("OK");
    }

    private static void target() {
    }

    static void staysInLocals() throws Exception {
        Method m = Main.class.getDeclaredMethod("target");
        Method alias = m;
        alias.setAccessible(true);
        m.invoke(null);
    }

    static void staysOnTheStack() throws Exception {
        Method m;
        (m = Main.class.getDeclaredMethod("target")).setAccessible(true);
        m.invoke(null);
    }

    static void staysThroughIn() throws Throwable {
        MethodHandles.Lookup l = ((MethodHandles.Lookup) PRIVATE_LOOKUP_IN.invoke(null, Main.class, MethodHandles.lookup())).in(Main.class);
        MethodHandle mh = l.findStatic(Main.class, "target", MethodType.methodType(void.class));
        mh.invoke();
    }

    static void leavesToAField() throws Exception {
        Method m = Main.class.getDeclaredMethod("target");
        m.setAccessible(true);
        saved = m;
    }

    static void leavesThroughIn() throws Throwable {
        kept = ((MethodHandles.Lookup) PRIVATE_LOOKUP_IN.invoke(null, Main.class, MethodHandles.lookup())).in(Main.class);
    }

    static Method leavesAsResult() throws Exception {
        Method m = Main.class.getDeclaredMethod("target");
        m.setAccessible(true);
        return m;
    }

    static void leavesAsArgument() throws Exception {
        Method m = Main.class.getDeclaredMethod("target");
        m.setAccessible(true);
        call(m);
    }

    static void call(Method m) throws Exception {
        m.invoke(null);
    }

    // MethodHandles.privateLookupIn, called through reflection.
    private static final Method PRIVATE_LOOKUP_IN;

    static {
        try {
            PRIVATE_LOOKUP_IN = MethodHandles.class.getMethod("privateLookupIn", Class.class, MethodHandles.Lookup.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
