package app;

// As the variant "propwrite", but Work sets the property through Lib.setPlugin,
// which nothing else calls: an update that removes the call (to the variant
// "property") leaves the writer unreachable, and declines.
public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        Lib.setPlugin();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
