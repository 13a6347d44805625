package cont.bb;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.InvocationHandlerAdapter;
import net.bytebuddy.implementation.MethodDelegation;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * ByteBuddy spins three subclasses of Greeter at run time: greet delegates to the
 * static methods of Shout, to the instance methods of a Polite, and to the invoke of
 * an InvocationHandler. Prints "HELLO BUDDY", "good day, buddy" and "handled greet".
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        System.out.println(toStatic().greet("buddy")); // @calls(cont.bb.Greeter.greet)
        System.out.println(toInstance().greet("buddy"));
        System.out.println(toHandler().greet("buddy"));
    }

    static Greeter toStatic() throws Exception {
        Class<? extends Greeter> c = new ByteBuddy()
                .subclass(Greeter.class)
                .method(ElementMatchers.named("greet"))
                .intercept(MethodDelegation.to(Shout.class))
                .make() // @calls(cont.bb.Greeter.<init>, cont.bb.Shout.shout) @!calls(cont.bb.Shout.unbound) @site(resolved, proxy)
                // The class literal given to subclass is the superclass: the spun class's
                // constructor runs Greeter's, and greet calls the static methods of Shout
                // (ByteBuddy picks among them by signature and annotations), not its
                // instance methods.
                // @because(cont.bb.Main.toStatic, cont.bb.Shout.shout, ByteBuddy: the subclass of cont.bb.Greeter spun at run time at Main.java:27 (cont.bb.Main.toStatic) delegates to: the static methods of cont.bb.Shout)
                .load(Main.class.getClassLoader())
                .getLoaded();
        return c.getDeclaredConstructor().newInstance();
    }

    static Greeter toInstance() throws Exception {
        return new ByteBuddy()
                .subclass(Greeter.class)
                .method(ElementMatchers.named("greet"))
                .intercept(MethodDelegation.to(new Polite()))
                .make() // @calls(cont.bb.Polite.greet) @site(resolved, proxy)
                .load(Main.class.getClassLoader())
                .getLoaded()
                .getDeclaredConstructor()
                .newInstance();
    }

    static Greeter toHandler() throws Exception {
        return new ByteBuddy()
                .subclass(Greeter.class)
                .method(ElementMatchers.named("greet"))
                .intercept(InvocationHandlerAdapter.of(new Handler()))
                .make() // @calls(cont.bb.Handler.invoke) @!calls(cont.bb.Polite.greet) @site(resolved, proxy)
                .load(Main.class.getClassLoader())
                .getLoaded()
                .getDeclaredConstructor()
                .newInstance();
    }
}
