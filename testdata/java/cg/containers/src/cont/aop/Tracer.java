package cont.aop;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

/** The interceptor: only the spun subclass's callback calls it. */
final class Tracer implements MethodInterceptor {
    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable { // @reachable
        return "traced: " + invocation.proceed();
    }
}
