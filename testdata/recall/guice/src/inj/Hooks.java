/*
 * Calls the @Hook methods of an object, private ones included: setAccessible(true)
 * on each Method before invoking it.
 */
package inj;

import java.lang.reflect.Method;

final class Hooks {
    private Hooks() {
    }

    static void run(Object target) throws Exception {
        for (Method m : target.getClass().getDeclaredMethods()) {
            if (m.isAnnotationPresent(Hook.class)) {
                m.setAccessible(true);
                m.invoke(target);
            }
        }
    }
}
