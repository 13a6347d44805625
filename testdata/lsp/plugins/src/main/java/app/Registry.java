/*
 * Runs registered handlers: the functional-interface call in fire is where lambdas
 * registered with onEvent run.
 */
package app;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

public class Registry {
    private final List<Consumer<String>> handlers = new ArrayList<>();

    public void onEvent(Consumer<String> handler) {
        handlers.add(handler);
    }

    public void fire(String event) {
        for (Consumer<String> h : handlers) {
            h.accept(event);
        }
    }
}
