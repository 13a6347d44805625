package rvl;

import java.util.HashMap;
import java.util.Map;

// Loading sites whose names the string analysis cannot find at Correct-String, and
// whether the level licenses where each name comes from (analysis
// TestResolvableSites). A site is "resolvable at the level" when every unknown value
// reaching it comes from a source the level licenses, so that a better analysis
// could resolve it; the statistics count resolved sites against resolvable ones.
public class Main {
    private static final Map<String, String> NAMES = new HashMap<>();

    public static void main(String[] args) throws Exception {
        NAMES.put("k", "rvl.Main");
        fromParameter(args.length > 0 ? args[0] : "rvl.Main");
        fromLoop(args.length);
        fromProperty();
        fromMap();
        Class.forName("rvl.Main"); // a constant: resolved
    }

    // A public parameter: any caller may pass anything. Beyond the level.
    public static Class<?> fromParameter(String name) throws Exception {
        return Class.forName(name);
    }

    // A name passed through String.valueOf in a loop: Correct-String licenses
    // constants, String.valueOf and locals; the analysis stops at the loop (a name
    // built with a constant prefix and suffix around the loop would resolve: the
    // level lets it keep the classes that match). Resolvable.
    static Class<?> fromLoop(int n) throws Exception {
        String name = "rvl.Main";
        for (int i = 0; i < n; i++) {
            name = String.valueOf(name);
        }
        return Class.forName(name);
    }

    // The environment: only Correct-Env licenses it, with its value. Beyond
    // Correct-String; resolved at Correct-Env when rvl.class is configured.
    static Class<?> fromProperty() throws Exception {
        return Class.forName(System.getProperty("rvl.class"));
    }

    // A collection's contents: beyond the level.
    static Class<?> fromMap() throws Exception {
        return Class.forName(NAMES.get("k"));
    }
}
