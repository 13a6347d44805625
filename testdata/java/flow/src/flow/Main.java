/*
 * Entry point of the "flow" program: calls every method of the program once
 * so that it also runs (java -cp <classes> flow.Main prints "OK"). The
 * interesting part is the DEFS/POSTDOM directives in the other files; their
 * grammar is in testdata/java/README.md.
 *
 *   Names.java      sources of Class.forName arguments (constants, fields,
 *                   calls, StringBuilder, parameters, properties)
 *   Control.java    definitions reaching a use through if/else, ?:, loops,
 *                   try/catch
 *   PostDom.java    does the cast post-dominate the forName?
 *   Reflect.java    getMethod/invoke with constant Class[] and Object[] arrays
 *   Category2.java  long/double locals and dup2/dup_x2/dup2_x2/dup2_x1
 */
package flow;

public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Class<?>[] loaded = {
            Names.literal(), Names.constantField(), Names.computedField(), Names.mutableField(),
            Names.viaPrivateMethod(), Names.viaValueOf(), Names.viaBuilder("Target"),
            Names.fromParameter("flow.Other"), Names.fromProperty(), Names.concatenated("Target"),
            Control.ifElse(true), Control.ternary(false),
        };
        for (Class<?> c : loaded) {
            if (!Plugin.class.isAssignableFrom(c)) {
                throw new AssertionError(c);
            }
        }
        Control.loop(3);
        Control.tryCatch();
        Control.overwrite(true);

        Plugin[] plugins = {
            PostDom.straightLine("flow.Target"), PostDom.viaConstructor("flow.Other"),
            (Plugin) PostDom.castInBranch("flow.Target", true), PostDom.forNameInBranch(true),
            PostDom.earlyReturn("flow.Target", true), PostDom.insideTry("flow.Missing"),
            PostDom.inLoop(new String[] {"flow.Target", "flow.Other"}),
        };
        StringBuilder out = new StringBuilder();
        for (Plugin p : plugins) {
            out.append(p.run("x")).append(' ');
        }
        out.append(Reflect.explicitArray()).append(' ').append(Reflect.arrayInitializer()).append(' ')
                .append(Reflect.varargs(new Other()));

        Category2.locals("p");
        long[] la = {1, 2};
        Category2.longArray(la, 0);
        Category2.longArrayValue(la, 1);
        Category2.intArrayValue(new int[] {3}, 0);
        new Category2().chainedFields(4, 5L);
        System.out.println(out);
        System.out.println("OK");
    }
}
