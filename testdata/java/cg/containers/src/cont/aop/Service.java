package cont.aop;

import javax.inject.Inject;

/**
 * The class Guice's AOP subclasses: not final, with a package-private @Inject
 * constructor and a package-private intercepted method.
 */
class Service {
    @Inject
    Service() { // @reachable
    }

    @Traced
    String work(String how) { // @reachable
        return "worked " + how;
    }
}
