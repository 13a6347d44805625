package app;

// Removes the calls of Lib.common and println, which stay reachable from Main.main
// and the JDK: updatable; Work.run loses the two edges.
public class Work {
    static void run(String[] a) {
        Lib.onlyFromWork();
        Creator.create();
    }

    static void other() {
        Lib.common();
    }
}
