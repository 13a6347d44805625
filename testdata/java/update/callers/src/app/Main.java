package app;

// Passes another name to Lib.load, whose forName the value analysis resolved from the
// arguments of load's callers: the site in Lib.load, which did not change, now
// resolves to app.Other, and app.Plugin is no longer created. The update visits
// Lib.load again (the reader of Main's facts) and drops Plugin's constructor.
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
        Lib.load("app.Other");
        Lib.dispatch();
    }
}
