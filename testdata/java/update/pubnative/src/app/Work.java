package app;

// Declares a public native method, which run calls (a member edit): at Correct-JDK
// it opens the NativeMethod node's public fallback, whose targets include the
// native itself. See analysis.TestUpdate and TestUpdateNativeFallback.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        nat();
        System.out.println(a.length);
    }

    public static native void nat();

    static void other() {
        Lib.common();
    }
}
