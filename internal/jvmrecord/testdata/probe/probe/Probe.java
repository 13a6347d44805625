package probe;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;

// Probe runs one of each kind of call the recorder must see (or leave out):
// a static call, a lambda (whose proxy class is hidden), a native method, a
// reflective call repeated past the inflation threshold (a spun accessor), a
// java.lang.reflect.Proxy and a call from a second thread; neverCalled must
// not be recorded.
public class Probe {
    static int counted;

    static void direct() { counted++; }

    public static void reflective() { counted++; }

    static int viaLambda() { Supplier<Integer> s = () -> counted; return s.get(); }

    interface Greeter { String greet(String who); }

    public static void main(String[] args) throws Exception {
        direct();
        viaLambda();
        System.identityHashCode(args); // native, linked at its first call
        new Object().hashCode(); // native, bound by Object.registerNatives
        Method m = Probe.class.getMethod("reflective");
        for (int i = 0; i < 40; i++) {
            m.invoke(null);
        }
        InvocationHandler h = (proxy, method, a) -> "hello " + a[0];
        Greeter g = (Greeter) Proxy.newProxyInstance(Probe.class.getClassLoader(), new Class<?>[] {Greeter.class}, h);
        g.greet("world");
        Thread t = new Thread(Probe::onThread);
        t.start();
        t.join();
    }

    static void onThread() { counted++; }

    static void neverCalled() { counted--; }
}
