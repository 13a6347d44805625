package app;

// Work is the class most cases change: nothing reaches Work.other, and
// Lib.onlyFromWork and Creator.create are reached only from Work.run.
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
}
