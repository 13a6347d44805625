/*
 * Issue 28's ten lines, as a new user tries the tool: an array holding one lambda,
 * and a loop calling run() on its elements. Under TFA an array the program creates
 * is a value with its own elements (typeflow/objects.go), and a lambda is a value
 * from its invokedynamic on: r.run() reaches the one lambda the array holds, at
 * every level (the value flow does not depend on the level), not the other lambda
 * of this program, nor the JDK's Runnable lambdas and run methods (Thread.run),
 * which RTA reaches by interface and name. one.run(), on a local lambda, likewise.
 *
 * B.run: B is never created, and unused() is never called. The JDK's cascade of
 * unresolved reflective calls still reaches Method.invoke and MethodHandle.invoke
 * sites whose targets are any public method, but an instance method runs on an
 * instance of its class: under RTA and TFA their targets among the program's
 * instance methods are those of created classes only. So at Correct-JDK, where
 * the JDK's native code does only what its model says, B.run is not reachable.
 * Below it, native code is external code that may call any public method
 * (NativeMethod's fallback: it may make objects without constructors), B.run
 * among them; at Behaved-CLs the fallbacks also run any constructor, B's
 * package-private one included. From Encap-Respect on, nothing creates a B.
 */
// @reachable[level<=5](ten.Main$B.run) @!reachable[level=6](ten.Main$B.run)
// @reachable[level=1](ten.Main$B.<init>) @!reachable[level>=2](ten.Main$B.<init>, ten.Main.unused)
// @levels(1,5,6) @algos(rta,tfa)
package ten;

import java.security.AccessController;
import java.security.PrivilegedAction;

public class Main {
    static class A implements PrivilegedAction<Object> { public Object run() { return "a"; } }
    static class B implements PrivilegedAction<Object> { public Object run() { return "b"; } }
    static Object sink;

    public static void main(String[] args) {
        sink = AccessController.doPrivileged(new A());
        Runnable[] hooks = new Runnable[] { () -> System.out.println("x") };
        for (Runnable r : hooks) r.run(); // @calls(ten.Main.lambda$main$0) @calls[rta](ten.Main.lambda$main$1, java.lang.Thread.run) @!calls[tfa](ten.Main.lambda$main$1, java.lang.Thread.run)
        Runnable one = () -> System.out.println("y");
        one.run(); // @calls(ten.Main.lambda$main$1) @calls[rta](ten.Main.lambda$main$0, java.lang.Thread.run) @!calls[tfa](ten.Main.lambda$main$0, java.lang.Thread.run)
    }

    static void unused() { sink = new B(); }
}
