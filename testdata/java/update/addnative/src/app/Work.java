package app;

// Declares a native method, which run calls (a member edit). At Correct-JDK a
// native outside the JDK model opens the NativeMethod node's public fallback: the
// update visits that node again with it.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        nat();
        System.out.println(a.length);
    }

    static native void nat();

    static void other() {
        Lib.common();
    }
}
