/*
 * The VS Code end-to-end test's program (vscode-extension/e2e): an order exporter
 * that picks its Exporter by name. What the test looks at:
 *   - Loader.load: Class.forName on a name from a public parameter (unresolved: a
 *     problem, and the quick fix that adds a specification entry);
 *   - Loader.standard: Class.forName of a constant (resolved: its hover lists the
 *     target), whose newInstance is the only caller of JsonExporter's constructor;
 *   - a lambda run later by Scheduler.runAll: audit's caller is the lambda;
 *   - legacyHeader, which nothing calls: unreachable code, greyed out.
 * The test finds positions by the text around them: keep those constructs unique.
 */
package shop;

public final class App {
    private App() {
    }

    public static void main(String[] args) throws Exception {
        Object configured = Loader.load(args.length > 0 ? args[0] : "shop.CsvExporter");
        Exporter standard = Loader.standard();
        Scheduler.later(() -> audit(standard.format("order 1")));
        Scheduler.runAll();
        audit(configured instanceof Exporter e ? e.format("order 2") : "none");
    }

    static void audit(String line) {
        Scheduler.LOG.add(line);
    }

    // Called from nowhere: greyed out as unreachable code.
    static String legacyHeader() {
        return "id,total";
    }
}
