/*
 * Reflective method lookup and invocation with constant arguments:
 * getMethod("run", new Class[] {String.class}) with an explicitly built
 * Class[] (anewarray + aastore of an ldc class constant), the varargs form
 * getMethod("run", String.class) (javac builds the same array implicitly), and
 * Method.invoke with an Object[] holding a string constant. The DEFS directives
 * give the sources of the receiver, the method name, the array and its
 * elements.
 */
package flow;

import java.lang.reflect.Method;

public final class Reflect {
    private Reflect() {
    }

    static Object explicitArray() throws Exception {
        Class<?> c = Class.forName("flow.Target"); // DEFS invokestatic java/lang/Class.forName arg0: ldc "flow.Target"
        Class<?>[] params = new Class[1]; // DEFS anewarray java/lang/Class value: ldc 1
        params[0] = String.class; // DEFS aastore array: anewarray java/lang/Class; index: ldc 0; value: ldc java/lang/String.class
        Method m = c.getMethod("run", params); // DEFS invokevirtual java/lang/Class.getMethod recv: invokestatic java/lang/Class.forName; arg0: ldc "run"; arg1: anewarray java/lang/Class
        Object target = c.getConstructor().newInstance();
        Object[] args = {"hello"}; // DEFS aastore array: anewarray java/lang/Object; index: ldc 0; value: ldc "hello"
        return m.invoke(target, args); // DEFS invokevirtual java/lang/reflect/Method.invoke recv: invokevirtual java/lang/Class.getMethod; arg0: invokevirtual java/lang/reflect/Constructor.newInstance; arg1: anewarray java/lang/Object
    }

    static Object arrayInitializer() throws Exception {
        Class<?> c = Target.class;
        Method m = c.getMethod("run", new Class[] {String.class}); // DEFS invokevirtual java/lang/Class.getMethod recv: ldc flow/Target.class; arg0: ldc "run"; arg1: anewarray java/lang/Class
        // DEFS aastore array: anewarray java/lang/Class; index: ldc 0; value: ldc java/lang/String.class
        return m.invoke(new Target(), "world"); // DEFS invokevirtual java/lang/reflect/Method.invoke recv: invokevirtual java/lang/Class.getMethod; arg0: new flow/Target; arg1: anewarray java/lang/Object
    }

    static Object varargs(Object target) throws Exception {
        Method m = target.getClass().getMethod("run", String.class); // DEFS invokevirtual java/lang/Class.getMethod recv: invokevirtual java/lang/Object.getClass; arg0: ldc "run"; arg1: anewarray java/lang/Class
        return m.invoke(target, "varargs"); // DEFS invokevirtual java/lang/reflect/Method.invoke recv: invokevirtual java/lang/Class.getMethod; arg0: param 0; arg1: anewarray java/lang/Object
    }
}
