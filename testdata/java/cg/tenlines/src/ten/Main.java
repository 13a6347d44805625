/*
 * Issue 28's ten lines, as a new user tries the tool: an array holding one lambda,
 * and a loop calling run() on its elements. Under TFA an array the program creates
 * is a value with its own elements (typeflow/objects.go), and a lambda is a value
 * from its invokedynamic on: r.run() reaches the one lambda the array holds, at
 * every level (the value flow does not depend on the level), not the other lambda
 * of this program, nor the JDK's Runnable lambdas and run methods (Thread.run),
 * which RTA reaches by interface and name. one.run(), on a local lambda, likewise.
 *
 * B.run, whose B is never created, is still reachable at every level: the JDK's
 * cascade of unresolved reflective calls reaches it (jcg-lsp why --method
 * 'ten.Main$B.run' shows the path; issue 28), so no expectation says otherwise.
 */
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
