package jfake;

import java.security.AccessController;
import java.security.PrivilegedAction;

// Indexed as the JDK's code, so TFA summarises it: its values are any object of
// their types, save an argument of a static call that the method creates itself.
// AccessController.doPrivileged runs the action it is given (the privileged
// resolver asks TFA which actions its argument holds).
public class Privileged {
    public static class A implements PrivilegedAction<Object> {
        public Object run() { return "a"; }
    }

    public static class B implements PrivilegedAction<Object> {
        public Object run() { return "b"; }
    }

    public static class C implements PrivilegedAction<Object> {
        public Object run() { return "c"; }
    }

    // The action is created here: the call runs A.run, not every action's run.
    public static Object created() {
        return AccessController.doPrivileged(new A());
    }

    // Created by a private factory whose code creates it: C.run.
    public static Object factory() {
        return AccessController.doPrivileged(make());
    }

    private static PrivilegedAction<Object> make() {
        return new C();
    }

    // A lambda captured here: its body (lambda$lambda$0) only.
    public static Object lambda() {
        return AccessController.doPrivileged((PrivilegedAction<Object>) () -> "lambda");
    }

    // One of two created here, by a branch: A.run and C.run.
    public static Object either(boolean first) {
        PrivilegedAction<Object> action = first ? new A() : new C();
        return AccessController.doPrivileged(action);
    }

    // A parameter: any action created anywhere, B (created by the application
    // only) among them, as the caller is the JDK's summarised code.
    public static Object given(PrivilegedAction<Object> action) {
        return AccessController.doPrivileged(action);
    }
}
