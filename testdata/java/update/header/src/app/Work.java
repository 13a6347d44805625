package app;

// Adds a method: method IDs move, not updatable in place.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }

    static void added() {}
}
