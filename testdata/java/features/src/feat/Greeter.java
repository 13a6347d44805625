/*
 * Interface methods of every kind (JDK 9+):
 *   - an abstract method (name),
 *   - a default method (greet) calling a private instance interface method
 *     (decorate) and the abstract one,
 *   - a private static interface method (shout) and a public static interface
 *     method (defaultName), called with invokestatic on an InterfaceMethodref.
 * Plain implements the interface using the default greet; Polite implements it
 * too, overrides greet and calls the default through Greeter.super.greet
 * (invokespecial on the interface).
 */
package feat;

public interface Greeter {
    String name();

    default String greet(String who) {
        return decorate("hello " + who + " from " + name());
    }

    private String decorate(String s) {
        return shout(s) + "!";
    }

    private static String shout(String s) {
        return s.toUpperCase();
    }

    static String defaultName() {
        return "greeter";
    }

    class Plain implements Greeter {
        @Override
        public String name() {
            return "plain";
        }
    }

    class Polite implements Greeter {
        @Override
        public String name() {
            return "polite";
        }

        @Override
        public String greet(String who) {
            return "dear " + Greeter.super.greet(who) + " / " + new Plain().greet(who);
        }
    }
}
