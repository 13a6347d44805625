package app;

// Work.run dispatches on Maker.make, an interface nothing dispatched on before and
// of which the program creates no lambda: the dispatch has no targets. Variant
// newdispatch-creator then has Creator.create (reached from run) store a method
// reference in Lib.maker, and the dispatch reaches Lib.made.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.out.println(a.length);
        if (Lib.maker != null) {
            Lib.maker.make();
        }
    }

    static void other() {
        Lib.common();
    }
}
