package app;

// Passes a system property to Lib.load: at Correct-String its forName no longer
// resolves (the name comes from the environment), so Lib.load's newInstance falls
// back to the constructors accessible from app.Lib, Plugin's package-private one among
// them. The update visits Lib.load again (the reader of Main's facts).
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
    }
}
