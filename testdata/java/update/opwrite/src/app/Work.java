package app;

import java.util.Properties;
import java.util.function.Supplier;

// Work.run stores a method reference to System.getProperties in op, and callOp calls
// it: a call whose result (the properties, which the caller may change) the analysis
// does not follow, so while both run, any property may be set. Variant opwrite-call's Main calls callOp; the variant
// property's does not, and then nothing sets app.plugin (analysis.TestUpdatePropertyWrites).
public class Work {
    static Supplier<Properties> op;

    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.out.println(a.length);
        op = System::getProperties;
    }

    static void callOp() {
        if (op != null) {
            op.get();
        }
    }

    static void other() {
        Lib.common();
    }
}
