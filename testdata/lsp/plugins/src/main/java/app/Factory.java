/*
 * Reflection: create's class name comes from its public parameter, so neither the
 * loading nor the instantiation can be resolved from the code (a specification
 * entry can); known loads a constant name and casts the instance, which
 * Correct-Cast and Correct-String resolve; call invokes a method named by a
 * parameter.
 */
package app;

import app.plugins.Plugin;
import java.lang.reflect.Method;

public final class Factory {
    private Factory() {
    }

    public static Object create(String name) throws ReflectiveOperationException {
        Class<?> c = Class.forName(name);
        return c.getDeclaredConstructor().newInstance();
    }

    public static Plugin known() throws ReflectiveOperationException {
        Class<?> c = Class.forName("app.plugins.Bye");
        return (Plugin) c.getDeclaredConstructor().newInstance();
    }

    public static Object call(Object target, String name) throws ReflectiveOperationException {
        Method m = target.getClass().getMethod(name);
        return m.invoke(target);
    }
}
