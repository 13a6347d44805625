package app;

// Work.run creates a method reference to Lib.common, as in variant mref, but no longer
// calls Creator.create: over variant mref-creator, create (the first creator of the
// reference in analysis.TestUpdateChain) is then unreachable, and Lib.common stays a
// lambda target of Main.main's Runnable.run dispatch through run's reference.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        System.out.println(a.length);
        Runnable ref = Lib::common;
    }

    static void other() {
        Lib.common();
    }
}
