/*
 * Which reachable code may set every system property (analysis.PropertyWriters,
 * jcg-lsp why --top at Correct-Env and Correct-JDK). Five calls, two of them such
 * sites (the last one, at line 26, a plain call: see there):
 *   - line 20 sets ew.key, a key the string analysis knows: it writes that key
 *     only, and is not a dynamic call;
 *   - line 22 invokes a method whose class and name come from the arguments: the
 *     fallback is every public static method taking two objects, System.setProperty
 *     among them (two Strings), with arguments nothing follows: the one site;
 *   - line 24 invokes Main.helper, resolved from constants: no writer;
 *   - line 25 loads a class named by an argument: the fallback runs <clinit>s only.
 */
package ew;

import java.lang.reflect.Method;

public class Main {
    public static void main(String[] args) throws Exception {
        Object a = args[2], b = args[3];
        System.setProperty("ew.key", "v");
        Method any = Class.forName(args[0]).getMethod(args[1], String.class, String.class);
        any.invoke(null, a, b);
        Method known = Main.class.getMethod("helper", String.class, String.class);
        known.invoke(null, a, b);
        Class.forName(args[4]);
        System.setProperty(args[5], "v"); // a key nothing knows: a plain call that may set every property
    }

    public static void helper(String a, String b) {}
}
