package cont.bb;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

/** The handler InvocationHandlerAdapter calls for the spun subclass of Main.toHandler. */
final class Handler implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) { // @reachable
        return "handled " + method.getName();
    }
}
