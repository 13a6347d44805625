/*
 * Method handles kept in fields. From Correct-String on (level 4), an invocation of
 * a handle read from a final or a private field is traced to what the field's class
 * stores in it: a final field is written by its declaring class's bytecode only
 * (JVMS 6.5), a private one by its nest's, and the level assumes that reflection
 * leaves such fields alone. The JDK keeps many handles this way (MethodHandleImpl's
 * BindCaller fills MH_checkCallerClass in its <clinit> and invokes it there). Below
 * level 4, and for a field anyone may write, the invocation falls back to the
 * level's set for method handles. A lookup whose class and name arguments are not
 * literals but a private helper's parameters, which its callers give literals, is
 * resolved from level 4 by the value analyses.
 */
// @levels(2-6) @algos(cha)
package mhf;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

public class Main {
    private static final MethodType INT_INT = MethodType.methodType(int.class, int.class);

    // Filled by <clinit> with a lookup of literals.
    static final MethodHandle TWICE;

    static {
        try {
            TWICE = MethodHandles.lookup().findStatic(Main.class, "twice", INT_INT);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // A private field each constructor fills with another lookup: either may be invoked.
    private final MethodHandle op;

    // A public field any class may write: not followed.
    public static MethodHandle open;

    Main(boolean up) throws ReflectiveOperationException {
        op = up ? MethodHandles.lookup().findStatic(Main.class, "inc", INT_INT)
                : MethodHandles.lookup().findStatic(Main.class, "dec", INT_INT);
    }

    Main() throws ReflectiveOperationException {
        op = MethodHandles.lookup().findStatic(Main.class, "neg", INT_INT);
    }

    int apply(int x) throws Throwable {
        return (int) op.invokeExact(x); // @site[level>=4](resolved, methodHandle) @calls[level>=4](mhf.Main.inc, mhf.Main.dec, mhf.Main.neg) @!calls[level>=4](mhf.Main.twice, mhf.Main.thrice) @site[level<4](unresolved, methodHandle)
    }

    public static void main(String[] args) throws Throwable {
        int n = (int) TWICE.invokeExact(21); // @site[level>=4](resolved, methodHandle) @calls[level>=4](mhf.Main.twice) @!calls[level>=4](mhf.Main.thrice, mhf.Main.inc) @site[level<4](unresolved, methodHandle)
        // The evidence names the field and the lookup it was traced to.
        // @because[level>=4](mhf.Main.main, mhf.Main.twice, the field mhf.Main.TWICE)
        open = MethodHandles.lookup().findStatic(Main.class, "thrice", INT_INT);
        int k = (int) open.invokeExact(n); // @site(unresolved, methodHandle)
        int h = (int) find(Main.class, "inc").invokeExact(5) + (int) find(Main.class, "dec").invokeExact(6);
        System.out.println(n + k + h + new Main(args.length > 0).apply(1) + new Main().apply(2));
    }

    // A helper whose callers all give its private parameters literals (the JDK's
    // StringConcatFactory.lookupStatic idiom): from level 4 the string and class
    // analyses resolve the lookup to inc and dec, whose handles then join the set
    // that unresolved invocations reach.
    private static MethodHandle find(Class<?> where, String name) throws ReflectiveOperationException {
        return MethodHandles.lookup().findStatic(where, name, INT_INT); // @site[level>=4](resolved, methodHandle) @site[level<4](unresolved, methodHandle)
        // @evidence[level>=4](mhf.Main.find, "dec") @evidence[level>=4](mhf.Main.find, "inc") @!evidence[level>=4](mhf.Main.find, "neg")
    }

    static int twice(int x) {
        return 2 * x;
    }

    static int thrice(int x) {
        return 3 * x;
    }

    static int inc(int x) {
        return x + 1;
    }

    static int dec(int x) {
        return x - 1;
    }

    static int neg(int x) {
        return -x;
    }
}
