/*
 * Dynamic proxies: calls on a proxy run InvocationHandler.invoke of its handler. The
 * edges go from the site that creates the proxy to the handler's invoke. When the
 * handler argument is allocated (or is a lambda or method reference) in the calling
 * method, the site is resolved to exactly that handler; otherwise invoke is dispatched
 * on every handler class the algorithm allows (lambdas included), at every level.
 */
package prx;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

public class Main {
    public static void main(String[] args) throws Exception {
        ClassLoader cl = Main.class.getClassLoader();
        Class<?>[] ifaces = {Service.class};
        Service s1 = (Service) Proxy.newProxyInstance(cl, ifaces, new LogHandler()); // @site(resolved, proxy) @calls(prx.LogHandler.invoke) @!calls(prx.OtherHandler.invoke, prx.Main.handle)
        s1.serve();
        InvocationHandler h = Main::handle;
        Service s2 = (Service) Proxy.newProxyInstance(cl, ifaces, h); // @site(resolved, proxy) @calls(prx.Main.handle) @!calls(prx.LogHandler.invoke)
        s2.serve();
        Service s3 = make(cl, args.length > 0 ? new LogHandler() : new OtherHandler());
        s3.serve();
        Class<?> pc = Proxy.getProxyClass(cl, Service.class); // @site(unresolved, proxy) @calls(prx.LogHandler.invoke, prx.OtherHandler.invoke)
        System.out.println(pc);
    }

    // The handler is a parameter: every handler class CHA or RTA allows, and the
    // method reference above (a lambda implementing InvocationHandler).
    static Service make(ClassLoader cl, InvocationHandler h) {
        return (Service) Proxy.newProxyInstance(cl, new Class<?>[] {Service.class}, h); // @site(unresolved, proxy) @calls(prx.LogHandler.invoke, prx.OtherHandler.invoke, prx.Main.handle)
        // NeverHandler is never created, and its constructor is private:
        // @calls[cha](prx.NeverHandler.invoke) @!calls[rta,level=2](prx.NeverHandler.invoke)
    }

    static Object handle(Object proxy, Method m, Object[] args) {
        return null;
    }
}

interface Service {
    void serve();
}

class LogHandler implements InvocationHandler {
    LogHandler() {
    }

    public Object invoke(Object proxy, Method m, Object[] args) {
        return null;
    }
}

class OtherHandler implements InvocationHandler {
    OtherHandler() {
    }

    public Object invoke(Object proxy, Method m, Object[] args) {
        return null;
    }
}

class NeverHandler implements InvocationHandler {
    private NeverHandler() {
    }

    public Object invoke(Object proxy, Method m, Object[] args) {
        return null;
    }
}
