/*
 * Helpers of the "flow" program: use(...) consumes a value (the call whose
 * arguments the DEFS directives describe) and mayThrow(n) is a call that may
 * throw IllegalStateException, giving the try blocks exception edges.
 */
package flow;

public final class Sink {
    static int uses;
    static long longs;

    private Sink() {
    }

    static void use(Object o) {
        uses++;
    }

    static void mayThrow(int n) {
        if (n == Integer.getInteger("flow.throw", 0)) {
            throw new IllegalStateException("throw " + n);
        }
    }

    static void four(long x, Object o, double d, Object p) {
        longs += x;
        uses++;
    }

    static void useLong(long x) {
        longs += x;
    }

    static void useInt(int x) {
        longs += x;
    }
}
