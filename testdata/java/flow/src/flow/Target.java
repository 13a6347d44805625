/*
 * The class that the "flow" program loads by name (Class.forName("flow.Target"))
 * and instantiates reflectively. It has a public no-argument constructor and a
 * public run(String) method, found with getMethod("run", String.class).
 */
package flow;

public class Target implements Plugin {
    public Target() {
    }

    @Override
    public String run(String arg) {
        return "target:" + arg;
    }
}
