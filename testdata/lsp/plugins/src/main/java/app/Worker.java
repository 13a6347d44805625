/*
 * A thread: Thread.start makes the JVM call run() on a new thread, so run's caller in
 * the call graph is the method that starts the thread.
 */
package app;

import app.plugins.Plugin;

public class Worker extends Thread {
    private final Plugin plugin;

    public Worker(Plugin plugin) {
        this.plugin = plugin;
    }

    @Override
    public void run() {
        Main.record(plugin.greet());
    }
}
