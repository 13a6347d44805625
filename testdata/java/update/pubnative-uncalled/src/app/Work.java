package app;

// As the variant "pubnative", but run no longer calls the native (a change of
// bodies only): a new run reaches it nowhere, so the NativeMethod node has no
// public fallback, although the fallback would reach the native.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.out.println(a.length);
    }

    public static native void nat();

    static void other() {
        Lib.common();
    }
}
