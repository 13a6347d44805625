package cont.aop;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.matcher.Matchers;

/**
 * Guice AOP: configure binds the interceptor Tracer to the methods of Service marked
 * @Traced. Guice then constructs Service as a subclass it spins at run time with its
 * repackaged CGLIB (ProxyFactory$ProxyConstructor calls $Enhancer.createClass); the
 * spun class's work() calls its callback, InterceptorStackCallback.intercept, which
 * calls Tracer.invoke, whose proceed() runs Service.work through
 * $MethodProxy.invokeSuper. Direct spins a subclass with CGLIB itself. Prints
 * "traced: worked hard" and "HELLO CGLIB" (on JDK 17 with
 * --add-opens java.base/java.lang=ALL-UNNAMED, which CGLIB needs to define the
 * classes).
 */
public final class Main {
    public static void main(String[] args) {
        Injector injector = Guice.createInjector(new AbstractModule() {
            @Override
            protected void configure() {
                bindInterceptor(Matchers.subclassesOf(Service.class), Matchers.annotatedWith(Traced.class), new Tracer());
            }
        });
        Service s = injector.getInstance(Service.class);
        System.out.println(s.work("hard")); // @calls(cont.aop.Service.work)
        System.out.println(Direct.greet());
    }
}

// The spun subclass is not in the class path: the site that spins it calls its
// callbacks' entry, and from there Guice's own code calls the interceptors bound to it.
// @because(com.google.inject.internal.ProxyFactory$ProxyConstructor.<init>, com.google.inject.internal.InterceptorStackCallback.intercept, Guice AOP (Guice's CGLIB): the subclass spun at run time at ProxyFactory.java:)
// @because(com.google.inject.internal.ProxyFactory$ProxyConstructor.<init>, com.google.inject.internal.InterceptorStackCallback.intercept, calls MethodInterceptor.intercept)
// @evidence(com.google.inject.internal.ProxyFactory$ProxyConstructor.<init>, CGLIB)
// @edge(com.google.inject.internal.InterceptorStackCallback$InterceptedMethodInvocation.proceed, cont.aop.Tracer.invoke)
