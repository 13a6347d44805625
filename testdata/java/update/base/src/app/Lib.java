package app;

public class Lib {
    static void common() {}

    static void viaLambda() {}

    static void onlyFromWork() {}

    // Package-private: at Correct-String the value analysis resolves the name from
    // the arguments of its callers (Main.main passes "app.Plugin").
    static Object load(String name) throws Exception {
        return Class.forName(name).getDeclaredConstructor().newInstance();
    }

    // Unreachable in the base program; it creates a lambda that Main.main's
    // hold.run() would call.
    static void lambdaMaker() {
        Main.hold = () -> Lib.common();
    }
}
