package app;

// Calls Lib.lambdaMaker, which was unreachable and creates a lambda: Main.main's
// hold.run() now also reaches that lambda's body, a dispatch the changed code does not
// make. The update grows that dispatch's lambda set (Runnable.run, which Main's own
// lambda has) in place.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        Lib.lambdaMaker();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
