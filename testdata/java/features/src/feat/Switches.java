/*
 * Switch statements and the instructions javac picks for them:
 *   - dense:    int cases 0..4 -> tableswitch;
 *   - sparse:   int cases 1, 100, 10000, -7 -> lookupswitch;
 *   - onString: a switch on a String -> lookupswitch on hashCode() followed by
 *               equals() checks and a second tableswitch on a temporary index
 *               ("Aa" and "BB" share a hash code, so one hash case needs two
 *               equals tests);
 *   - onEnum:   a switch on an enum -> the synthetic class Switches$1 with a static
 *               int[] $SwitchMap$feat$Op filled from Op.ordinal() in its static
 *               initialiser (inside try/catch NoSuchFieldError), then a switch on
 *               the mapped index (a lookupswitch: there are only two cases);
 *   - arrow:    a JDK 14 switch expression with arrow cases and yield, sharing
 *               the same $SwitchMap$feat$Op array.
 */
package feat;

public final class Switches {
    private Switches() {
    }

    static String dense(int n) {
        switch (n) {
            case 0:
                return "zero";
            case 1:
                return "one";
            case 2:
                return "two";
            case 3:
                return "three";
            case 4:
                return "four";
            default:
                return "many";
        }
    }

    static String sparse(int n) {
        switch (n) {
            case 1:
                return "1";
            case 100:
                return "100";
            case 10000:
                return "10k";
            case -7:
                return "-7";
            default:
                return "?";
        }
    }

    static int onString(String s) {
        switch (s) {
            case "one":
                return 1;
            case "two":
                return 2;
            case "Aa":
                return 3;
            case "BB":
                return 4;
            default:
                return -1;
        }
    }

    static String onEnum(Op op) {
        switch (op) {
            case ADD:
                return "add";
            case SUB:
                return "sub";
            default:
                return arrow(op);
        }
    }

    static String arrow(Op op) {
        return switch (op) {
            case MUL -> "mul";
            case MOD -> {
                String s = op.symbol();
                yield "mod" + s;
            }
            default -> "other";
        };
    }
}
