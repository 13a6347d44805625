package jfake.ch;

import java.lang.reflect.Method;

// Indexed as the JDK's code, in another nest than Channels: its Method is a
// parameter, and no override of its nest may reach it.
// EXPECT: call's Method.invoke keeps Encap-Respect from level 2 on: it does not
// reach the package-private Base.hidden of another package (level 1: any method).
public class Invoker {
    public static Object call(Method m, Object o) throws Exception {
        return m.invoke(o);
    }
}
