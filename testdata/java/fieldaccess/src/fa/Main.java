package fa;

import java.lang.reflect.Field;
import java.security.AccessController;
import java.security.PrivilegedAction;
import java.security.PrivilegedExceptionAction;

// Field objects reaching Field.get and Field.set (TestFieldAccess): the call in
// each method names the fields its comment says, as Class.getField and
// getDeclaredField find them.
public class Main {
    interface Limits { int MAX = 3; }
    static class Base { public int size; int hidden; }
    static class Box extends Base implements Limits { private int count; public String label; }

    // getDeclaredField: the class's own field, private as it is.
    static Object declared(Box b) throws Exception {
        return Box.class.getDeclaredField("count").get(b); // fa.Main$Box.count
    }

    // getField: public fields only, the superclass's too.
    static Object inherited(Box b) throws Exception {
        Field f = Box.class.getField("size");
        return f.get(b); // fa.Main$Base.size
    }

    // getField: a superinterface's constant.
    static Object constant() throws Exception {
        return Box.class.getField("MAX").get(null); // fa.Main$Limits.MAX
    }

    // getField of a field that is not public finds none (NoSuchFieldException).
    static Object notPublic(Box b) throws Exception {
        return Box.class.getField("hidden").get(b); // no field
    }

    // Two names through a private helper's parameter.
    static Object helper(Box b, boolean which) throws Exception {
        return field(which ? "label" : "size").get(b); // fa.Main$Box.label, fa.Main$Base.size
    }

    private static Field field(String name) throws Exception {
        return Box.class.getField(name);
    }

    // A name from a public parameter: unknown.
    public static Object unknown(Box b, String name) throws Exception {
        return Box.class.getField(name).get(b); // unknown
    }

    // From the action handed to doPrivileged, created here: AccessController's
    // code calls that action's run, so the call returns what run returns
    // (TestPrivilegedReturns, with the JDK's AccessController).
    static Object privileged(Box b) throws Exception {
        Field f = AccessController.doPrivileged(new PrivilegedExceptionAction<Field>() {
            public Field run() throws Exception {
                return Box.class.getDeclaredField("count");
            }
        });
        return f.get(b); // fa.Main$Box.count
    }

    // The same from a lambda that captures nothing.
    static Object privilegedLambda(Box b) throws Exception {
        Field f = AccessController.doPrivileged((PrivilegedAction<Field>) () -> {
            try {
                return Box.class.getField("label");
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException(e);
            }
        });
        return f.get(b); // fa.Main$Box.label
    }

    // An action from a public parameter: not known.
    public static Object givenAction(PrivilegedExceptionAction<Field> action, Box b) throws Exception {
        return AccessController.doPrivileged(action).get(b); // unknown
    }
}
