/* Injected into a field of Service; its constructor is package-private. */
package inj;

import javax.inject.Inject;

class Greeter {
    @Inject
    Greeter() {
    }

    String greet(int n) {
        return "recorded " + n + " entries";
    }
}
