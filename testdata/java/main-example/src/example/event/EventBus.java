/*
 * A synchronous publish/subscribe bus keyed by event class. Handlers are
 * java.util.function.Consumer objects, usually lambdas or method references
 * created in Main; subscribe wraps each one in another lambda that casts the
 * event, and publish calls them through Consumer.accept — so the call graph
 * only reaches the handler bodies through invokedynamic-created objects.
 */
package example.event;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

public final class EventBus {
    private final Map<Class<?>, List<Consumer<Object>>> handlers = new HashMap<>();

    public synchronized <E> void subscribe(Class<E> type, Consumer<? super E> handler) {
        handlers.computeIfAbsent(type, k -> new ArrayList<>()).add(event -> handler.accept(type.cast(event)));
    }

    public void publish(Object event) {
        List<Consumer<Object>> targets;
        synchronized (this) {
            targets = List.copyOf(handlers.getOrDefault(event.getClass(), List.of()));
        }
        for (Consumer<Object> target : targets) {
            target.accept(event);
        }
    }
}
