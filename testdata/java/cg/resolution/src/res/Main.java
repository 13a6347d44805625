/*
 * Resolution of reflective sites by the Correct-Cast (3), Correct-String (4) and
 * Correct-Env (5) analyses, including the interprocedural cases the published
 * intraprocedural analyses missed: a newInstance wrapper whose callers cast, names
 * passed through private methods and private fields, and negative cases (a cast
 * that does not post-dominate; a name from a public parameter).
 *
 * Expected edges are written on the call lines. Levels 1-2 fall back to the
 * conservative sets, so the positive expectations below hold at every level
 * (the fallback contains them) and the negative ones only where resolution narrows.
 */
// @levels(all) @algos(cha)
package res;

public class Main {
    private String configured; // private field: written only in this class

    Main() {
        configured = "res.Square";
    }

    public static void main(String[] args) throws Exception {
        constantName();
        castOnly(args[0]);
        castByClass(args[0]);
        guarded(args[0]);
        halfGuarded(args[0], args.length > 3);
        System.out.println(narrowed(args[0]));
        privileged(args.length > 4);
        System.out.println(created(Shape.class, args[0]).area());
        castInBranch(args[0], args.length > 1);
        Shape w = (Shape) make("res.Circle");
        System.out.println(w.area());
        concatenated(args.length > 2);
        shaped(args[0]);
        builder();
        new Main().fromField();
        property();
        invoked(args[0]);
        viaLambda(n -> Class.forName(n)); // @site[level>=4](unresolved) @calls(res.Circle.<clinit>)
        captured("res.Square");
        capturedThroughHelper("res.Circle");
        fromTable(args.length);
        fromOverwrittenTable(args.length, args[0]);
    }

    // An element of an array a private helper makes afresh and fills with literals
    // (jlink's SystemModulesMap.classNames()): one of them, AlphaPlugin or Square.
    static void fromTable(int i) throws Exception {
        Class.forName(tableNames()[i]); // @calls(res.plugins.AlphaPlugin.<clinit>, res.Square.<clinit>) @!calls[level>=4](res.Circle.<clinit>, res.plugins.BetaPlugin.<clinit>) @site[level>=4](resolved)
    }

    private static String[] tableNames() {
        return new String[] {"res.plugins.AlphaPlugin", "res.Square"};
    }

    // The same table, but the caller stores a name of its own into it first: the
    // element may be anything.
    public static void fromOverwrittenTable(int i, String other) throws Exception {
        String[] names = tableNames();
        names[0] = other;
        Class.forName(names[i]); // @site(unresolved) @calls(res.Circle.<clinit>)
    }

    interface Loader {
        void load(String name) throws Exception;
    }

    // The lambda's parameter has no caller in the bytecode (LambdaMetafactory calls
    // the body): its value is unknown, not empty.
    private static void viaLambda(Loader l) throws Exception {
        l.load("res.Square");
    }

    // A constant name: Correct-String resolves the site to Circle.
    static void constantName() throws Exception {
        Class.forName("res.Circle"); // @calls(res.Circle.<clinit>) @!calls[level>=4](res.Square.<clinit>) @site[level>=4](resolved)
    }

    // The name is a public parameter (unknown), but the created object is cast to
    // Shape, and the cast post-dominates: Correct-Cast resolves to Shape's classes,
    // Hidden included, and nothing else.
    public static Shape castOnly(String name) throws Exception {
        Class<?> c = Class.forName(name); // @calls(res.Hidden.<clinit>) @!calls[level>=3](res.plugins.AlphaPlugin.<clinit>) @site[level>=3](resolved)
        Object o = c.getDeclaredConstructor().newInstance(); // @calls(res.Circle.<init>, res.Hidden.<init>) @!calls[level>=3](res.plugins.AlphaPlugin.<init>)
        return (Shape) o;
    }

    // Class.cast is a cast too: Shape.class.cast post-dominates the creation, so
    // Correct-Cast resolves as for castOnly.
    public static Shape castByClass(String name) throws Exception {
        Class<?> c = Class.forName(name); // @calls(res.Hidden.<clinit>) @!calls[level>=3](res.plugins.AlphaPlugin.<clinit>) @site[level>=3](resolved)
        Object o = c.getDeclaredConstructor().newInstance(); // @calls(res.Circle.<init>, res.Hidden.<init>) @!calls[level>=3](res.plugins.AlphaPlugin.<init>)
        return Shape.class.cast(o);
    }

    // A guard: the name is a public parameter, but newInstance runs only where
    // Shape.class.isAssignableFrom(c) held (a failed test throws first), so it
    // creates Shape's classes only. The guard is no assumption: it holds from
    // Correct-Cast on, where the value analyses run. forName still loads anything.
    public static Object guarded(String name) throws Exception {
        Class<?> c = Class.forName(name); // @calls(res.plugins.AlphaPlugin.<clinit>)
        if (!Shape.class.isAssignableFrom(c)) {
            throw new IllegalArgumentException(name);
        }
        return c.getDeclaredConstructor().newInstance(); // @calls(res.Circle.<init>, res.Hidden.<init>) @!calls[level>=3](res.plugins.AlphaPlugin.<init>) @site[level>=3](resolved)
    }

    // The guard on one path only: newInstance also runs when the test was skipped.
    public static Object halfGuarded(String name, boolean check) throws Exception {
        Class<?> c = Class.forName(name);
        if (check && !Shape.class.isAssignableFrom(c)) {
            return null;
        }
        return c.getDeclaredConstructor().newInstance(); // @site(unresolved) @calls(res.plugins.AlphaPlugin.<init>)
    }

    // asSubclass checks the Class object before newInstance (it throws otherwise);
    // no cast follows (returned as an Object, the Shape needs none).
    public static Object narrowed(String name) throws Exception {
        return Class.forName(name).asSubclass(Shape.class).getDeclaredConstructor().newInstance(); // @calls(res.Circle.<init>, res.Hidden.<init>) @!calls[level>=3](res.plugins.AlphaPlugin.<init>)
    }

    // doPrivileged runs the action and returns what run() returns: the name comes from
    // the lambda's body, with the captured suffix. Correct-String resolves it.
    @SuppressWarnings("removal")
    static void privileged(boolean b) throws Exception {
        String suffix = b ? "Circle" : "Square";
        String name = java.security.AccessController.doPrivileged((java.security.PrivilegedAction<String>) () -> "res." + suffix);
        Class.forName(name); // @calls(res.Circle.<clinit>, res.Square.<clinit>) @!calls[level>=4](res.Hidden.<clinit>) @site[level>=4](resolved)
    }

    // A generic factory: the Class object of type.cast is a parameter of a private
    // method, which Correct-String follows to the only caller (Shape.class); at
    // Correct-Cast the cast's class is unknown and the site stays unresolved.
    private static <T> T created(Class<T> type, String name) throws Exception {
        return type.cast(Class.forName(name).getDeclaredConstructor().newInstance()); // @calls(res.Circle.<init>, res.Hidden.<init>) @!calls[level>=4](res.plugins.AlphaPlugin.<init>) @site[level=3](unresolved) @site[level>=4](resolved)
    }

    // The cast is in one branch only: it does not post-dominate the creation, so the
    // site stays unresolved (the level 2 fallback), with the public parameter as its
    // specification point.
    public static Object castInBranch(String name, boolean cast) throws Exception {
        Object o = Class.forName(name).getDeclaredConstructor().newInstance(); // @site[level>=3](unresolved) @calls(res.plugins.AlphaPlugin.<init>)
        if (cast) {
            return (Shape) o;
        }
        return o;
    }

    // A newInstance wrapper: it returns the object, and its only caller casts it.
    private static Object make(String name) throws Exception {
        return Class.forName(name).getDeclaredConstructor().newInstance(); // @calls(res.Circle.<init>) @!calls[level>=3](res.plugins.BetaPlugin.<init>) @!calls[level>=4](res.Hidden.<init>)
    }

    // Two names built by concatenation through a private helper.
    static void concatenated(boolean b) throws Exception {
        Class.forName(pluginName(b ? "Alpha" : "Beta")); // @calls(res.plugins.AlphaPlugin.<clinit>, res.plugins.BetaPlugin.<clinit>) @!calls[level>=4](res.Circle.<clinit>) @site[level>=4](resolved)
    }

    private static String pluginName(String kind) {
        return "res.plugins." + kind + "Plugin";
    }

    // A prefix shape: any class of res.plugins.
    public static void shaped(String suffix) throws Exception {
        Class.forName("res.plugins." + suffix); // @calls(res.plugins.AlphaPlugin.<clinit>, res.plugins.BetaPlugin.<clinit>) @!calls[level>=4](res.Circle.<clinit>)
    }

    // A StringBuilder chain.
    static void builder() throws Exception {
        String n = new StringBuilder().append("res.").append("Squ").append("are").toString();
        Class.forName(n); // @calls(res.Square.<clinit>) @!calls[level>=4](res.Circle.<clinit>) @site[level>=4](resolved)
    }

    // A private field written only in the constructor.
    void fromField() throws Exception {
        Class.forName(configured); // @calls(res.Square.<clinit>) @!calls[level>=4](res.Circle.<clinit>)
    }

    // A system property: known only to Correct-Env, where an unconfigured property
    // nothing sets is unset and the default applies. But the JDK's unresolved
    // reflective calls, reachable at levels 5 and 6, may set any property
    // (testdata/java/cg/environment): the site stays unresolved.
    static void property() throws Exception {
        Class.forName(System.getProperty("res.impl", "res.Circle")); // @calls(res.Circle.<clinit>) @site[level>=4](unresolved)
    }

    // A lambda's body receives what it captures where the lambda is created, here
    // the name captured's caller passes: only Square (from Correct-String on), unlike
    // viaLambda's, whose name is an argument of the interface's method.
    static void captured(String name) throws Exception {
        java.util.concurrent.Callable<Class<?>> load = () -> Class.forName(name); // @site[level>=4](resolved) @calls(res.Square.<clinit>) @!calls[level>=4](res.Circle.<clinit>)
        load.call();
    }

    // The same through a helper the lambda's body calls: only Circle.
    static void capturedThroughHelper(String name) {
        java.util.function.Supplier<Object> load = () -> loadQuietly(name);
        load.get();
    }

    private static Object loadQuietly(String name) {
        try {
            return Class.forName(name); // @site[level>=4](resolved) @calls(res.Circle.<clinit>) @!calls[level>=4](res.Square.<clinit>)
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    // getMethod with a constant name on a resolved class: only area() of Circle.
    public static void invoked(String ignored) throws Exception {
        Class<?> c = Class.forName("res.Circle");
        Object s = c.getDeclaredConstructor().newInstance();
        c.getMethod("area").invoke(s); // @calls(res.Circle.area) @!calls[level>=4](res.Circle.name, res.Square.area)
    }
}
