/*
 * A host that loads its plugin by the name in system property demo.plugin, and its
 * theme by the name in demo.theme with a default (server/envprops_test.go).
 *
 * At Correct-Env and Correct-JDK the analysed environment decides both: with
 * demo.plugin set to demo.Fast, the plugin site loads and initialises demo.Fast only;
 * unset, it loads nothing; and while reachable code may set every property (the
 * JDK's unresolved reflective calls make it so today), it is unresolved, its value
 * from System.getProperty("demo.plugin"). The theme site loads demo.Light (the
 * default) while demo.theme is unset, and what it names once it is set.
 */
package demo;

public class Main {
    public static void main(String[] args) throws Exception {
        Class<?> plugin = Class.forName(System.getProperty("demo.plugin"));
        Class<?> theme = Class.forName(System.getProperty("demo.theme", "demo.Light"));
        System.out.println(plugin.getName() + theme.getName());
    }
}
