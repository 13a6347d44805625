package app;

// As the variant "propwrite" (it sets the property Main passes to Lib.load) and also
// calls Work.other: an update from "propwrite" keeps the write and reaches other.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.setProperty("app.plugin", "app.Other");
        other();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
