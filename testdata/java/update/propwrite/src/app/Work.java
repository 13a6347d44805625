package app;

// Sets the property that the variant "property"'s Main passes to Lib.load (the test
// puts this Work over that variant): at Correct-JDK a
// key that reachable code sets holds what the code writes, so Lib.load's forName
// resolves to app.Other. Without the write (the variant "property") the key is unset
// in the analysed environment and the site loads nothing: an update that removes
// this write must give that graph, or decline.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.setProperty("app.plugin", "app.Other");
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
