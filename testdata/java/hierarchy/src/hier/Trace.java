/*
 * Runtime check of the expectations written in the other files of this program.
 * Every method that a RESOLVE/SELECT directive can name as a result records its
 * own name (hier/A.m style, the same spelling as in the directives) with
 * Trace.hit; right after each call the calling code calls Trace.expect with
 * the result that the directive on the call line predicts. Running
 *
 *     java -cp <classes> hier.Main
 *
 * therefore checks, on a real JVM, every directive that describes a call the
 * program actually makes ("OK: n checks" on success, an AssertionError
 * otherwise). Directives on comment-only lines are not executed (they are
 * hypothetical queries such as selection for an abstract receiver class).
 */
package hier;

public final class Trace {
    private static String last;
    private static int checks;

    private Trace() {
    }

    public static void hit(String method) {
        last = method;
    }

    public static void expect(String want) {
        checks++;
        if (!want.equals(last)) {
            throw new AssertionError("expected " + want + " to run, got " + last);
        }
        last = null;
    }

    /** Runs r, which must fail with an error of the given simple class name. */
    public static void expectError(String error, Runnable r) {
        try {
            r.run();
        } catch (LinkageError e) {
            hit("!" + e.getClass().getSimpleName());
        }
        expect("!" + error);
    }

    static int checks() {
        return checks;
    }
}
