/*
 * Assorted single-method constructs:
 *   - nativeHash:  a native method declaration (ACC_NATIVE, no Code attribute;
 *                  never linked, so calling it would throw UnsatisfiedLinkError);
 *   - arith:       long and double arithmetic (category-2 locals and operand stack
 *                  values: ladd, lmul, lshl, l2d, dmul, d2l, lcmp, dcmpg, ...);
 *   - matrix:      multi-dimensional array creation (multianewarray) and a
 *                  partially specified one (anewarray of int[]);
 *   - describe:    instanceof pattern matching (JDK 16) on several types;
 *   - textBlock:   a text block (JDK 15), compiled to a plain String constant;
 *   - concat:      string concatenation mixing constants, a char, a long, a double
 *                  and an object (one invokedynamic makeConcatWithConstants);
 *   - the static initialiser of Misc reads a system property into a static field.
 */
package feat;

public final class Misc {
    static final String HOME;

    static {
        HOME = System.getProperty("user.home", "/");
    }

    private Misc() {
    }

    static native int nativeHash(String s);

    static String arith(long a, double d) {
        long x = a * 3L + (a << 2) - (a >>> 1);
        double y = d * x / 2.0 - (double) a;
        long z = (long) y % 5L;
        int cmp = Long.compare(x, z) + (y > d ? 1 : 0);
        float f = (float) y;
        return concat('L', x, y, z + cmp, f);
    }

    static String concat(char c, long x, double y, long z, Object o) {
        return "c=" + c + " x=" + x + " y=" + y + " z=" + z + " o=" + o + ";";
    }

    static int[][][] matrix(int n, int m) {
        int[][][] cube = new int[n][m][2];
        int[][] ragged = new int[n][];
        ragged[0] = new int[] {1, 2, 3};
        cube[n - 1][m - 1][1] = ragged[0][2];
        return cube;
    }

    static String describe(Object o) {
        if (o instanceof Integer i && i > 10) {
            return "big int " + (i + 1);
        }
        if (o instanceof String s) {
            return "string of " + s.length();
        }
        if (!(o instanceof Number n)) {
            return "other";
        }
        return "number " + n.doubleValue();
    }

    static String textBlock() {
        return """
            {
              "name": "features",
              "kind": "text block"
            }
            """;
    }
}
