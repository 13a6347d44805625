package cont.aop;

import com.google.inject.internal.cglib.proxy.$Enhancer;
import com.google.inject.internal.cglib.proxy.$MethodInterceptor;
import com.google.inject.internal.cglib.proxy.$MethodProxy;
import java.lang.reflect.Method;

/**
 * CGLIB used directly (Guice's repackaging, whose classes guice.jar makes public):
 * greet spins a subclass of Greeter with the callback Loud, which runs Greeter.hello
 * through invokeSuper and shouts the result ("HELLO CGLIB").
 */
final class Direct {
    static String greet() {
        $Enhancer e = new $Enhancer();
        e.setSuperclass(Greeter.class);
        e.setCallback(new Loud());
        Greeter g = (Greeter) e.create(); // @calls(cont.aop.Greeter.<init>, cont.aop.Loud.intercept) @site(resolved, proxy)
        // The superclass is a class literal and the callback an allocation, both set on
        // an Enhancer that does not leave this method: the spun class's constructor runs
        // Greeter's, and its methods call Loud's, not another callback's.
        // @because(cont.aop.Direct.greet, cont.aop.Greeter.<init>, Guice's CGLIB: the subclass of cont.aop.Greeter spun at run time at Direct.java:18 (cont.aop.Direct.greet): create() constructs it)
        // @because(cont.aop.Direct.greet, cont.aop.Loud.intercept, the subclass of cont.aop.Greeter spun at run time at Direct.java:18 (cont.aop.Direct.greet) calls the callback set on its Enhancer: new cont.aop.Loud)
        // @!calls(com.google.inject.internal.InterceptorStackCallback.intercept)
        return g.hello("cglib"); // @calls(cont.aop.Greeter.hello)
    }
}

/** Subclassed at run time: package-private, with a package-private constructor. */
class Greeter {
    Greeter() { // @reachable
    }

    String hello(String who) { // @reachable
        return "hello " + who;
    }

    private static String quiet() { // called by nothing: no subclass overrides it
        return "";
    }
}

/**
 * The callback: only the spun subclass calls it. invokeSuper runs the superclass's
 * method that the spun subclass's method overrides, through the FastClass CGLIB spins
 * too: a method of a superclass that an Enhancer site of Guice's CGLIB shows, that is
 * Greeter (greet's setSuperclass), whose overridable methods are hello and Object's
 * (toString...). Service, which Guice's ProxyFactory enhances with a superclass from
 * its bindings, no site shows: its work is reached where Main calls it, not here.
 * Nor is Greeter's private static quiet, which no subclass can override.
 */
final class Loud implements $MethodInterceptor {
    @Override
    public Object intercept(Object obj, Method method, Object[] args, $MethodProxy proxy) throws Throwable { // @reachable
        return ((String) proxy.invokeSuper(obj, args)).toUpperCase(); // @calls(cont.aop.Greeter.hello, java.lang.Object.toString) @!calls(cont.aop.Service.work, cont.aop.Greeter.quiet)
        // @because(cont.aop.Loud.intercept, cont.aop.Greeter.hello, Guice's CGLIB: MethodProxy.invokeSuper runs the superclass's method)
    }
}
