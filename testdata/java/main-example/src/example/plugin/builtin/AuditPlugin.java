/*
 * The default configured plugin, loaded by PluginLoader.loadConfigured from
 * the name in the example.plugin system property. Its execute() is only ever
 * called by reflection; it uses a private helper and a static counter.
 */
package example.plugin.builtin;

import example.event.EventBus;
import example.plugin.Plugin;

public class AuditPlugin implements Plugin {
    private static int audits;
    private EventBus bus;

    @Override
    public String name() {
        return "audit";
    }

    @Override
    public void init(EventBus bus) {
        this.bus = bus;
    }

    public void execute() {
        bus.publish(summary(++audits));
    }

    private String summary(int n) {
        return "audit #" + n + " of " + name();
    }
}
