package app;

// The base program of analysis.TestUpdate. Each other directory of
// testdata/java/update replaces one of its classes; the test checks that Update either
// gives exactly the graph of a new run of the changed program or declines, as each
// case says.
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
        Lib.load("app.Plugin");
        Lib.dispatch();
    }
}
