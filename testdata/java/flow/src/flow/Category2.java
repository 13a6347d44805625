/*
 * Category-2 values (long and double take two local-variable slots and count
 * as one value of size two on the operand stack) mixed with references, and
 * the stack-shuffling instructions javac emits for compound and chained
 * assignments:
 *   - locals:      long and double locals interleaved with Object locals, so
 *                  the reference locals live at slot numbers shifted by the
 *                  category-2 ones; all four reach one call;
 *   - longArray:   la[i] += 5L        -> aload, iload, dup2, laload, ldc2_w, ladd, lastore
 *                                        (dup2 duplicates two category-1 values);
 *   - longArrayValue: use(la[i] += 5L) -> ... ladd, dup2_x2, lastore
 *                                        (a category-2 value under two category-1 ones);
 *   - intArrayValue:  use(ia[i] += 5)  -> ... iadd, dup_x2, iastore;
 *   - chainedFields: a = b = v on int fields (dup_x1) and x = y = w on long
 *                  fields (dup2_x1), and on static fields (dup, dup2).
 */
package flow;

public final class Category2 {
    static long sx;
    static long sy;

    int a;
    int b;
    long x;
    long y;

    static void locals(Object p) {
        long big = 1L;
        Object o = new Object();
        double d = 2.5;
        Object q = p;
        Sink.four(big, o, d, q); // DEFS invokestatic flow/Sink.four arg0: ldc 1L; arg1: new java/lang/Object; arg2: ldc 2.5D; arg3: param 0
        long sum = big + (long) d; // DEFS ladd op0: ldc 1L; op1: d2l
        Sink.useLong(sum); // DEFS invokestatic flow/Sink.useLong arg0: ladd
        Sink.use(o); // DEFS invokestatic flow/Sink.use arg0: new java/lang/Object
    }

    static void longArray(long[] la, int i) {
        la[i] += 5L; // DEFS lastore array: param 0; index: param 1; value: ladd
        // DEFS laload array: param 0; index: param 1
        // DEFS ladd op0: laload; op1: ldc 5L
    }

    static long longArrayValue(long[] la, int i) {
        Sink.useLong(la[i] += 5L); // DEFS invokestatic flow/Sink.useLong arg0: ladd
        // DEFS lastore array: param 0; index: param 1; value: ladd
        return la[i];
    }

    static int intArrayValue(int[] ia, int i) {
        Sink.useInt(ia[i] += 5); // DEFS invokestatic flow/Sink.useInt arg0: iadd
        // DEFS iastore array: param 0; index: param 1; value: iadd
        return ia[i];
    }

    void chainedFields(int v, long w) {
        a = b = v; // DEFS putfield flow/Category2.a recv: this; value: param 0
        // DEFS putfield flow/Category2.b recv: this; value: param 0
        x = y = w; // DEFS putfield flow/Category2.x recv: this; value: param 1
        // DEFS putfield flow/Category2.y recv: this; value: param 1
        sx = sy = w + 1; // DEFS putstatic flow/Category2.sx value: ladd
        // DEFS putstatic flow/Category2.sy value: ladd
        Sink.useLong(x + sx); // DEFS invokestatic flow/Sink.useLong arg0: ladd
    }
}
