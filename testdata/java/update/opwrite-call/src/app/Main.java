package app;

// As the variant property's Main, and calls Work.callOp, which (over variant
// opwrite) calls a method reference to System.getProperties.
public class Main {
    static Runnable hold;

    public static void main(String[] args) throws Exception {
        Work.run(args);
        Runnable r = () -> Lib.viaLambda();
        r.run();
        Lib.common();
        if (hold != null) {
            hold.run();
        }
        Lib.load(System.getProperty("app.plugin"));
        Lib.dispatch();
        Work.callOp();
    }
}
