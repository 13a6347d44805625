/*
 * The application's service: constructor injection (package-private), field
 * injection (Greeter) and a private @Hook method that runs after injection.
 */
package inj;

import javax.inject.Inject;

class Service {
    private final Store store;
    @Inject
    Greeter greeter;
    private boolean started;

    @Inject
    Service(Store store) {
        this.store = store;
    }

    @Hook
    private void start() {
        started = true;
    }

    void record(String what) {
        if (!started) {
            throw new IllegalStateException("the @Hook method did not run");
        }
        store.put(what);
    }

    String report() {
        return greeter.greet(store.size());
    }
}
