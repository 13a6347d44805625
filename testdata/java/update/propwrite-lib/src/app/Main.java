package app;

// As in the variant "property", Main passes a system property to Lib.load; Work
// (this variant's) sets it. See analysis.TestUpdatePropertyWrites.
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
