package app;

public class Lib {
    // Set in variant newdispatch-creator, read in variant newdispatch.
    static Maker maker;

    // Unreachable in the base program; newdispatch-creator makes it the target of
    // Lib.maker's make().
    static Object made() {
        return null;
    }

    static void common() {}

    // Reached from Main.main: virtual calls whose CHA targets the variants that add
    // and remove overrides change, without changing Lib.
    static void dispatch() {
        drawAll(new Shape());
        greetAll(new Polite());
    }

    static void drawAll(Shape s) {
        s.draw();
    }

    static void greetAll(Greeter g) {
        g.greet();
    }

    static void viaLambda() {}

    static void onlyFromWork() {}

    // Package-private: at Correct-String the value analysis resolves the name from
    // the arguments of its callers (Main.main passes "app.Plugin").
    static Object load(String name) throws Exception {
        return Class.forName(name).getDeclaredConstructor().newInstance();
    }

    // Unreachable in the base program; in the variant propwrite-lib Work sets the
    // property that the variant's Main passes to load through it.
    static void setPlugin() {
        System.setProperty("app.plugin", "app.Other");
    }

    // Unreachable in the base program; it creates a lambda that Main.main's
    // hold.run() would call.
    static void lambdaMaker() {
        Main.hold = () -> Lib.common();
    }
}
