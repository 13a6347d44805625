/*
 * The language server's test program: a small plugin host using the dynamic features
 * whose handling the server shows. Tests find positions by the text around them, so
 * keep each commented construct unique in its file.
 *   - a lambda registered on a Registry and run by Registry.fire (incoming calls of
 *     its body show both the creating method and the caller that runs it);
 *   - a Worker thread started with Thread.start (Worker.run's caller is main);
 *   - Factory.create: Class.forName and newInstance on a name that comes from a
 *     public parameter (unresolved; the quick fix adds a specification entry);
 *   - Factory.known: Class.forName of a constant (resolved at Correct-String);
 *   - Factory.call: Method.invoke of a method named by a parameter;
 *   - calls of native JDK methods (System.currentTimeMillis, getClass);
 *   - overloads, a static initialiser and text with characters outside the BMP
 *     before a call on the same line (LSP columns count UTF-16 units);
 *   - a private method nothing calls (package-private, it would be reachable: the
 *     unresolved Method.invoke in Factory.call may call it at Encap-Respect).
 */
package app;

import app.plugins.Plugin;
import java.util.ArrayList;
import java.util.List;

public final class Main {
    static final List<String> LOG = new ArrayList<>();
    static long started;

    static {
        started = System.currentTimeMillis();
    }

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Registry registry = new Registry();
        registry.onEvent(e -> record("event " + e));
        Object plugin = Factory.create(args.length > 0 ? args[0] : "app.plugins.Hello");
        Plugin known = Factory.known();
        Worker worker = new Worker(known);
        worker.start();
        worker.join();
        registry.fire("done");
        Factory.call(plugin, "describe");
        String smile = "h\u00e9llo 😀 ✓"; record(smile, 2);
    }

    static void record(String s) {
        LOG.add(s);
    }

    static void record(String s, int times) {
        for (int i = 0; i < times; i++) {
            record(s);
        }
    }

    private static void unused() {
        record("never");
    }
}
