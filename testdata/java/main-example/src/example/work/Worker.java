/*
 * The Runnable that Main starts on its own Thread: Thread.start reaches
 * Worker.run only through the JDK (start -> start0, native), so a call graph
 * needs a model of Thread.start to connect them. run executes each plugin
 * reflectively (PluginLoader.execute) and publishes a TaskCompleted record
 * per plugin, numbered in order.
 */
package example.work;

import example.event.EventBus;
import example.event.TaskCompleted;
import example.plugin.Plugin;
import example.plugin.PluginLoader;
import java.util.List;

public final class Worker implements Runnable {
    private final List<Plugin> plugins;
    private final EventBus bus;

    public Worker(List<Plugin> plugins, EventBus bus) {
        this.plugins = List.copyOf(plugins);
        this.bus = bus;
    }

    @Override
    public void run() {
        int sequence = 0;
        for (Plugin plugin : plugins) {
            try {
                PluginLoader.execute(plugin);
            } catch (ReflectiveOperationException e) {
                bus.publish("plugin " + plugin.name() + " failed: " + e);
                continue;
            }
            bus.publish(new TaskCompleted("execute", plugin.name(), ++sequence));
        }
    }
}
