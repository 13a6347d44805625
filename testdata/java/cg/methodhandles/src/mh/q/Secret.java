/*
 * Targets for unresolved method-handle invocations.
 */
package mh.q;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

public class Secret {
    public static void pub() {
    }

    private static void priv() {
    }

    // An unresolved lookup in Secret (its class is a public parameter, its name
    // unknown): at Encap-Respect the members Secret may access (priv included) join
    // the targets of unresolved invocations.
    public static void lookedUp(Class<?> k) throws Exception {
        MethodHandles.lookup().findStatic(k, nameOf(), MethodType.methodType(void.class)); // @site(unresolved, methodHandle)
    }

    static String nameOf() {
        return System.getenv("X");
    }
}

class Locked {
    private static void locked() {
    }
}
