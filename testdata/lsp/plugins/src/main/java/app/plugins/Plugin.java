/* The plugins' interface. */
package app.plugins;

public interface Plugin {
    String greet();
}
