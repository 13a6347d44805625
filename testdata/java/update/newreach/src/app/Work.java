package app;

// Calls Work.other, which was unreachable: updatable, other is visited as a new run
// would and gains its edge to Lib.common.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        other();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
