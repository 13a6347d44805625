/*
 * Exception-handling and monitor constructs:
 *   - tryFinally:    try/catch/finally; javac duplicates the finally block on the
 *                    normal path, the catch path and an "any" exception handler
 *                    that rethrows with athrow;
 *   - withResources: try-with-resources over two resources (close() calls in
 *                    reverse order, Throwable.addSuppressed on the exceptional
 *                    path) and a multi-catch;
 *   - counter:       a static synchronized method (ACC_SYNCHRONIZED, no
 *                    monitor instructions);
 *   - syncBlock:     a synchronized block (monitorenter/monitorexit with an
 *                    exception handler that exits the monitor and rethrows).
 */
package feat;

import java.io.IOException;

public class Resources {
    private static int count;
    private final Object lock = new Object();
    private int value;

    static final class Res implements AutoCloseable {
        private final String name;

        Res(String name) {
            this.name = name;
        }

        String read() throws IOException {
            if (name.isEmpty()) {
                throw new IOException("empty");
            }
            return name;
        }

        @Override
        public void close() {
            Features.LOG.add("closed " + name);
        }
    }

    static String tryFinally() {
        StringBuilder sb = new StringBuilder();
        try {
            sb.append(Integer.parseInt("x1"));
        } catch (NumberFormatException e) {
            sb.append("caught");
        } finally {
            sb.append("-finally");
        }
        return sb.toString();
    }

    static String withResources() {
        try (Res a = new Res("a"); Res b = new Res("b")) {
            return a.read() + b.read();
        } catch (IOException | IllegalStateException e) {
            return "failed " + e.getMessage();
        }
    }

    static synchronized int counter() {
        return ++count;
    }

    int syncBlock() {
        synchronized (lock) {
            value += 2;
            return value;
        }
    }
}
