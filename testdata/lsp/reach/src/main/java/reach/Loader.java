/* Reflection of a constant name: Correct-String resolves it, Correct-Cast takes the cast. */
package reach;

final class Loader {
    private static final String NAME = "reach.Hello";

    static Greeter make() throws ReflectiveOperationException {
        return (Greeter) Class.forName(NAME).getDeclaredConstructor().newInstance();
    }
}
