package app;

// Calls Work.other, which was unreachable: not updatable in place (its edges were
// never computed).
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
