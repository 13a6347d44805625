package app;

// Adds a private helper that run calls instead of Lib.onlyFromWork: method IDs
// move. Updated in place: run -> helper -> Lib.onlyFromWork.
public class Work {
    static void run(String[] a) {
        Lib.common();
        helper();
        Creator.create();
        System.out.println(a.length);
    }

    private static void helper() {
        Lib.onlyFromWork();
    }

    static void other() {
        Lib.common();
    }
}
