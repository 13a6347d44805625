/*
 * Definitions reaching a use along several control-flow paths:
 *   - ifElse:    a local assigned in both branches of an if/else (two reaching
 *                definitions of one local);
 *   - ternary:   the two values meet on the operand stack, not in a local;
 *   - loop:      a local redefined in a loop body reaches the use at the loop
 *                head (both the initial and the loop definition) and after it;
 *   - tryCatch:  a local redefined inside a try block between calls that may
 *                throw: every definition reaches the catch handler (each one is
 *                followed by a throwing call before the next redefinition, so
 *                the answer is the same whatever exception-edge model is used),
 *                and the exception object itself is defined by the handler;
 *   - overwrite: a definition killed by a later one on every path does not reach.
 */
package flow;

public final class Control {
    private Control() {
    }

    static Class<?> ifElse(boolean other) throws ClassNotFoundException {
        String name;
        if (other) {
            name = "flow.Other";
        } else {
            name = "flow.Target";
        }
        return Class.forName(name); // DEFS invokestatic java/lang/Class.forName arg0: ldc "flow.Other" | ldc "flow.Target"
    }

    static Class<?> ternary(boolean other) throws ClassNotFoundException {
        return Class.forName(other ? "flow.Other" : "flow.Target"); // DEFS invokestatic java/lang/Class.forName arg0: ldc "flow.Other" | ldc "flow.Target"
    }

    static String loop(int n) {
        String s = "flow";
        for (int i = 0; i < n; i++) {
            Sink.use(s); // DEFS invokestatic flow/Sink.use arg0: ldc "flow" | invokevirtual java/lang/String.concat
            s = s.concat("."); // DEFS invokevirtual java/lang/String.concat recv: ldc "flow" | invokevirtual java/lang/String.concat; arg0: ldc "."
        }
        Sink.use(s); // DEFS invokestatic flow/Sink.use arg0: ldc "flow" | invokevirtual java/lang/String.concat
        return s;
    }

    static String tryCatch() {
        String name = "flow.A";
        try {
            Sink.mayThrow(1);
            name = "flow.B";
            Sink.mayThrow(2);
            name = "flow.C";
            Sink.mayThrow(3);
        } catch (IllegalStateException e) {
            Sink.use(e); // DEFS invokestatic flow/Sink.use arg0: catch java/lang/IllegalStateException
            Sink.use(name); // DEFS invokestatic flow/Sink.use arg0: ldc "flow.A" | ldc "flow.B" | ldc "flow.C"
            name = "flow.D";
        }
        Sink.use(name); // DEFS invokestatic flow/Sink.use arg0: ldc "flow.C" | ldc "flow.D"
        return name;
    }

    static String overwrite(boolean b) {
        String s = "dead";
        s = "live";
        if (b) {
            Sink.use(s); // DEFS invokestatic flow/Sink.use arg0: ldc "live"
        }
        return s; // DEFS areturn value: ldc "live"
    }
}
