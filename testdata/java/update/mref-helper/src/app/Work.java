package app;

// Work.makeRef, a new method, creates a method reference to Lib.common: the
// justification of Lib.common as a lambda target of Main.main's Runnable.run
// dispatch. Going back to the base program removes makeRef, and with it the target.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.out.println(a.length);
        makeRef();
    }

    static void makeRef() {
        Runnable ref = Lib::common;
    }

    static void other() {
        Lib.common();
    }
}
