/*
 * Post-dominance between a Class.forName call and the cast of the object
 * created from the loaded class: when the cast post-dominates the forName
 * (every normal path from the forName to a method exit passes through the
 * cast), a reflection analysis may assume the loaded class is a subtype of the
 * cast type. POSTDOM/NOPOSTDOM directives (grammar and the exact definition of
 * the control-flow graph used, which ignores exception edges, in
 * testdata/java/README.md):
 *   - straightLine:   (Plugin) c.newInstance() right after the forName;
 *   - viaConstructor: the same through getDeclaredConstructor().newInstance();
 *   - castInBranch:   the cast happens only on one branch after the forName;
 *   - forNameInBranch: the forName is inside an if, the cast after the join:
 *                     the cast still post-dominates the forName;
 *   - earlyReturn:    a return between the forName and the cast;
 *   - insideTry:      forName and cast inside a try block: with exception edges
 *                     ignored the cast post-dominates the forName;
 *   - inLoop:         forName inside a loop body, cast after the loop.
 */
package flow;

@SuppressWarnings("deprecation") // Class.newInstance, as in old reflective code
public final class PostDom {
    private PostDom() {
    }

    static Plugin straightLine(String name) throws Exception {
        Class<?> c = Class.forName(name); // POSTDOM invokestatic java/lang/Class.forName -> checkcast flow/Plugin
        return (Plugin) c.newInstance(); // DEFS checkcast flow/Plugin value: invokevirtual java/lang/Class.newInstance
    }

    static Plugin viaConstructor(String name) throws Exception {
        Class<?> c = Class.forName(name); // POSTDOM invokestatic java/lang/Class.forName -> checkcast flow/Plugin
        Object o = c.getDeclaredConstructor().newInstance();
        Plugin p = (Plugin) o; // DEFS checkcast flow/Plugin value: invokevirtual java/lang/reflect/Constructor.newInstance
        return p;
    }

    static Object castInBranch(String name, boolean cast) throws Exception {
        Class<?> c = Class.forName(name); // NOPOSTDOM invokestatic java/lang/Class.forName -> checkcast flow/Plugin
        Object o = c.newInstance();
        if (cast) {
            return (Plugin) o;
        }
        return o;
    }

    static Plugin forNameInBranch(boolean custom) throws Exception {
        Class<?> c = Target.class;
        if (custom) {
            c = Class.forName(System.getProperty("flow.plugin", "flow.Other")); // POSTDOM invokestatic java/lang/Class.forName -> checkcast flow/Plugin
        }
        return (Plugin) c.newInstance(); // DEFS invokevirtual java/lang/Class.newInstance recv: ldc flow/Target.class | invokestatic java/lang/Class.forName
    }

    static Plugin earlyReturn(String name, boolean check) throws Exception {
        Class<?> c = Class.forName(name); // NOPOSTDOM invokestatic java/lang/Class.forName -> checkcast flow/Plugin
        if (check && !Plugin.class.isAssignableFrom(c)) {
            return null;
        }
        return (Plugin) c.newInstance();
    }

    static Plugin insideTry(String name) {
        try {
            // forName and newInstance can throw to the handler, which returns.
            Class<?> c = Class.forName(name); // NOPOSTDOM invokestatic java/lang/Class.forName -> checkcast flow/Plugin
            return (Plugin) c.newInstance();
        } catch (ReflectiveOperationException e) {
            return new Target();
        }
    }

    static Plugin inLoop(String[] names) throws Exception {
        Class<?> c = Other.class;
        for (String n : names) {
            c = Class.forName(n); // POSTDOM invokestatic java/lang/Class.forName -> checkcast flow/Plugin
        }
        return (Plugin) c.newInstance(); // DEFS invokevirtual java/lang/Class.newInstance recv: ldc flow/Other.class | invokestatic java/lang/Class.forName
    }
}
