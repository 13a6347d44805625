/* A plugin created by name (Factory.create). */
package app.plugins;

public class Hello implements Plugin {
    static final String WORD = String.valueOf("hello");

    public Hello() {
    }

    @Override
    public String greet() {
        return WORD;
    }

    public String describe() {
        return "Hello plugin";
    }
}
