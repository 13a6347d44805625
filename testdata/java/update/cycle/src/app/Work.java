package app;

// Stops calling Creator.create. In the old graph create is still the target of its
// own lambda's body, which Main.main's hold.run() reaches; but that lambda exists only
// if create runs, so a new run reaches neither create nor the body: not updatable in
// place (the conditional set of Runnable.run's lambda targets justifies the body by
// create, which nothing else reaches).
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
