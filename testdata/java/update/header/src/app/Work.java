package app;

// Adds a method nothing calls: method IDs move. Updated in place; added is not
// reachable.
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
