package app;

// Work.run creates a method reference to Lib.common: Lib.common joins the lambda
// targets of Main.main's Runnable.run dispatch, justified by run. Over it, variant
// mref-creator has Creator.create create one too (analysis.TestUpdateChain).
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.out.println(a.length);
        Runnable ref = Lib::common;
    }

    static void other() {
        Lib.common();
    }
}
