/*
 * What every plugin implements. By convention a plugin also has a public
 * no-argument execute() method, which is not part of this interface: the
 * worker finds it with getMethod("execute") and calls it with Method.invoke
 * (see PluginLoader.execute), so only a reflection-aware analysis links the
 * worker to the plugins' execute bodies.
 */
package example.plugin;

import example.event.EventBus;

public interface Plugin {
    String name();

    void init(EventBus bus);
}
