package jfake.ch;

import java.lang.reflect.Method;
import java.security.AccessController;
import java.security.PrivilegedAction;

import jfake.spi.Base;

// Indexed as the JDK's code. Each nested class opens a Method with
// setAccessible(true) the way the JDK does; every override here keeps its object
// inside the nest of Channels (a private field, a lambda's capture, an anonymous
// class's capture, a private helper), so it reaches the sites of this nest only.
public class Channels {
    // DatagramChannelImpl$AbstractSelectableChannels' idiom: a doPrivileged lambda
    // looks the method up and opens it; a private static final field keeps it.
    // EXPECT: call's Method.invoke reaches Base.hidden at every level (at
    // Encap-Respect through level 1's set: the Method is not resolved there).
    private static class Opened {
        private static final Method HIDDEN = AccessController.doPrivileged((PrivilegedAction<Method>) () -> {
            try {
                Method m = Base.class.getDeclaredMethod("hidden");
                m.setAccessible(true);
                return m;
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(e);
            }
        });

        static Object call(Base b) throws Exception {
            return HIDDEN.invoke(b);
        }
    }

    // Class.newInstance's idiom: an anonymous action opens the Method its method
    // made; the method then calls it.
    // EXPECT: viaAnonymous's Method.invoke reaches Base.hidden at every level.
    static Object viaAnonymous(Base b) throws Exception {
        final Method m = lookup();
        AccessController.doPrivileged(new PrivilegedAction<Void>() {
            public Void run() {
                m.setAccessible(true);
                return null;
            }
        });
        return m.invoke(b);
    }

    // A private helper: its callers are this nest's.
    private static Method lookup() throws NoSuchMethodException {
        return Base.class.getDeclaredMethod("hidden");
    }

    public static Object run(Base b) throws Exception {
        Opened.call(b);
        return viaAnonymous(b);
    }
}
