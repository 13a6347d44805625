/*
 * Loads plugins by class name and runs them by reflection:
 *   - loadBuiltin:    Class.forName with a constant name (a static final
 *                     String, inlined by javac as an ldc) and a cast of
 *                     getDeclaredConstructor().newInstance() to Plugin;
 *   - loadConfigured: Class.forName with a name read from the system property
 *                     example.plugin (default: the audit plugin), narrowed with
 *                     asSubclass(Plugin.class);
 *   - execute:        getMethod("execute") on the plugin's class and
 *                     Method.invoke.
 */
package example.plugin;

import example.event.EventBus;
import java.lang.reflect.Method;

public final class PluginLoader {
    public static final String BUILTIN = "example.plugin.builtin.GreetingPlugin";
    public static final String PROPERTY = "example.plugin";

    private final EventBus bus;

    public PluginLoader(EventBus bus) {
        this.bus = bus;
    }

    public Plugin loadBuiltin() throws ReflectiveOperationException {
        Class<?> c = Class.forName(BUILTIN);
        Plugin plugin = (Plugin) c.getDeclaredConstructor().newInstance();
        plugin.init(bus);
        return plugin;
    }

    public Plugin loadConfigured() throws ReflectiveOperationException {
        String name = System.getProperty(PROPERTY, "example.plugin.builtin.AuditPlugin");
        Class<? extends Plugin> c = Class.forName(name).asSubclass(Plugin.class);
        Plugin plugin = c.getDeclaredConstructor().newInstance();
        plugin.init(bus);
        return plugin;
    }

    public static void execute(Plugin plugin) throws ReflectiveOperationException {
        Method execute = plugin.getClass().getMethod("execute");
        execute.invoke(plugin);
    }
}
