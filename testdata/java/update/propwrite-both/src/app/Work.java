package app;

// Sets the property of the variant property twice: itself and through Lib.setPlugin.
// analysis.TestUpdatePropertyWrites goes from here to propwrite (Lib.setPlugin is no
// longer reachable; Work.run still writes) and then to property (nothing writes).
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.setProperty("app.plugin", "app.Other");
        Lib.setPlugin();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
