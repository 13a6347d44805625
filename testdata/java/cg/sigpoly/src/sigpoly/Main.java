/*
 * Signature-polymorphic calls (JVMS 2.9.3): MethodHandle.invokeExact/invoke and the
 * VarHandle access methods are declared with one Object[] parameter, ACC_VARARGS and
 * ACC_NATIVE, and javac compiles each call with the descriptor of its actual
 * arguments and result ((I)I, (Ljava/lang/Object;)V, ...). Resolution (JVMS 5.4.3.3)
 * finds the declared method whatever the descriptor, so each such line has an edge
 * to it. They are not calls into native code: the JVM links them to method-handle
 * adapters, so there is no native-method site on these lines (what a handle
 * invokes is the method-handle resolver's business: testdata/java/cg/methodhandles).
 * MethodHandle.invokeWithArguments is an ordinary varargs method.
 */
package sigpoly;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

public class Main {
    static int counter;
    static final VarHandle COUNTER;

    static {
        try {
            COUNTER = MethodHandles.lookup().findStaticVarHandle(Main.class, "counter", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public static void main(String[] args) throws Throwable {
        MethodHandle twice = MethodHandles.lookup().findStatic(Main.class, "twice", MethodType.methodType(int.class, int.class));
        int r = (int) twice.invokeExact(3); // @calls(java.lang.invoke.MethodHandle.invokeExact) @!site(native)
        Object o = twice.invoke((Object) 4); // @calls(java.lang.invoke.MethodHandle.invoke) @!site(native)
        Object w = twice.invokeWithArguments(5); // @calls(java.lang.invoke.MethodHandle.invokeWithArguments([Ljava/lang/Object;)Ljava/lang/Object;)
        boolean set = COUNTER.compareAndSet(0, r); // @calls(java.lang.invoke.VarHandle.compareAndSet) @!site(native)
        int v = (int) COUNTER.get(); // @calls(java.lang.invoke.VarHandle.get) @!site(native)
        COUNTER.set(v + 1); // @calls(java.lang.invoke.VarHandle.set) @!calls(java.lang.invoke.VarHandle.get)
        System.out.println(r + " " + o + " " + w + " " + set + " " + counter);
    }

    static int twice(int x) {
        return 2 * x;
    }
}
