package app;

// Adds calls to methods that are already reachable, one on an interface whose
// dispatch Main.main already makes (hold.run(): its targets through lambdas are the
// previous run's): updatable; Work.run gains edges to Lib.viaLambda and to the
// lambda bodies of Runnable.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        Lib.viaLambda();
        if (Main.hold != null) {
            Main.hold.run();
        }
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
