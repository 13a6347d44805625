package app;

// Removes the only call of Lib.onlyFromWork, which a new run no longer reaches: the
// update in place drops it with its edges.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Creator.create();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
