package app;

// Work.run dispatches on Maker.make, an interface nothing dispatched on before and
// of which the program creates no lambda: the dispatch has no targets. Variant
// newdispatch-creator then has Creator.create (reached from run) store a constructor
// reference in maker, and the dispatch reaches Other.<init>.
public class Work {
    static Maker maker;

    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.out.println(a.length);
        if (maker != null) {
            maker.make();
        }
    }

    static void other() {
        Lib.common();
    }
}
