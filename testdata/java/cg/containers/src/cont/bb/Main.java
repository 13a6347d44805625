package cont.bb;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.implementation.InvocationHandlerAdapter;
import net.bytebuddy.implementation.MethodDelegation;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * ByteBuddy spins three subclasses of Greeter at run time: greet delegates to the
 * static methods of Shout, to the instance methods of a Polite, and to the invoke of
 * an InvocationHandler; made makes a builder it is given, which returns a fixed value.
 * Prints "HELLO BUDDY", "good day, buddy", "handled greet" and "fixed".
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        System.out.println(toStatic().greet("buddy")); // @calls(cont.bb.Greeter.greet)
        System.out.println(toInstance().greet("buddy"));
        System.out.println(toHandler().greet("buddy"));
        System.out.println(made(new ByteBuddy()
                .subclass(Greeter.class)
                .method(ElementMatchers.named("greet"))
                .intercept(FixedValue.value("fixed"))).greet("buddy"));
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
                // @because(cont.bb.Main.toStatic, cont.bb.Shout.shout, ByteBuddy: the subclass of cont.bb.Greeter spun at run time at Main.java:34 (cont.bb.Main.toStatic) delegates to: the static methods of cont.bb.Shout)
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
                // @because(cont.bb.Main.toHandler, cont.bb.Handler.invoke, delegates to: InvocationHandler.invoke of new cont.bb.Handler)
                // @because(cont.bb.Main.toHandler, cont.bb.Greeter.<init>, ByteBuddy: the subclass of cont.bb.Greeter spun at run time at Main.java:62 (cont.bb.Main.toHandler): its constructors)
                .load(Main.class.getClassLoader())
                .getLoaded()
                .getDeclaredConstructor()
                .newInstance();
    }

    /** The builder comes from the caller: its superclass and implementations are not known here. */
    static Greeter made(DynamicType.Builder<Greeter> builder) throws Exception {
        return builder.make() // @site(unresolved, proxy) @calls(cont.bb.Handler.invoke) @!calls(cont.bb.Greeter.<init>, cont.bb.Shout.shout)
                // Not known, so every InvocationHandler's invoke, and evidence saying that
                // delegation targets are not followed.
                // @evidence(cont.bb.Main.made, MethodDelegation's targets and other implementations not known here are not followed)
                .load(Main.class.getClassLoader())
                .getLoaded()
                .getDeclaredConstructor()
                .newInstance();
    }
}
