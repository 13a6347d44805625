/*
 * The bundled example application for the `analyze` command: a small plugin
 * runner that exercises the things a call graph of real Java code has to get
 * right (see testdata/java/README.md for the list and what each class adds):
 * lambdas and method references registered on an event bus, plugins loaded by
 * reflection (a constant class name and one taken from a system property),
 * a plugin method called through Method.invoke, a worker thread started with a
 * Runnable, a record, and an interface with two implementations chosen at run
 * time.
 *
 * Run it with: java -cp <classes> example.Main [--json]
 * (-Dexample.plugin=<class name> picks the configured plugin.)
 */
package example;

import example.event.EventBus;
import example.event.TaskCompleted;
import example.plugin.Plugin;
import example.plugin.PluginLoader;
import example.report.Formatter;
import example.report.JsonFormatter;
import example.report.PlainFormatter;
import example.work.Worker;
import java.util.ArrayList;
import java.util.List;

public final class Main {
    private Main() {
    }

    static void log(String message) {
        System.out.println("[log] " + message);
    }

    public static void main(String[] args) throws Exception {
        EventBus bus = new EventBus();
        List<TaskCompleted> done = new ArrayList<>();
        bus.subscribe(TaskCompleted.class, done::add);
        bus.subscribe(TaskCompleted.class, e -> log("completed " + e.task() + " by " + e.plugin()));
        bus.subscribe(String.class, Main::log);

        PluginLoader loader = new PluginLoader(bus);
        List<Plugin> plugins = new ArrayList<>();
        plugins.add(loader.loadBuiltin());
        plugins.add(loader.loadConfigured());

        Thread thread = new Thread(new Worker(plugins, bus), "worker");
        thread.start();
        thread.join();

        Formatter formatter = args.length > 0 && args[0].equals("--json") ? new JsonFormatter() : new PlainFormatter();
        System.out.println(formatter.format(done));
    }
}
