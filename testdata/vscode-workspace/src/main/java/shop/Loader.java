/*
 * Reflection: load's class name comes from its public parameter, so no level resolves
 * it (a specification entry can); standard loads a constant name and casts the
 * instance, which Correct-Cast and Correct-String resolve.
 */
package shop;

public final class Loader {
    private Loader() {
    }

    public static Object load(String name) throws ReflectiveOperationException {
        Class<?> type = Class.forName(name);
        return type.getDeclaredConstructor().newInstance();
    }

    static Exporter standard() throws ReflectiveOperationException {
        Class<?> type = Class.forName("shop.JsonExporter");
        return (Exporter) type.getDeclaredConstructor().newInstance();
    }
}
