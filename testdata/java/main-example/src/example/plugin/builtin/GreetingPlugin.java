/*
 * The built-in plugin loaded by PluginLoader.loadBuiltin through a constant
 * class name. Its execute() is only ever called by reflection.
 */
package example.plugin.builtin;

import example.event.EventBus;
import example.plugin.Plugin;

public class GreetingPlugin implements Plugin {
    private EventBus bus;

    @Override
    public String name() {
        return "greeting";
    }

    @Override
    public void init(EventBus bus) {
        this.bus = bus;
    }

    public void execute() {
        bus.publish("hello from " + name());
    }
}
