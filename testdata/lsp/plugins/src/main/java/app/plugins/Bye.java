/* The plugin Factory.known loads by a constant name. */
package app.plugins;

public class Bye implements Plugin {
    static final String WORD = String.valueOf("bye");

    @Override
    public String greet() {
        return WORD;
    }
}
