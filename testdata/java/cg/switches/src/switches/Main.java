/*
 * How javac 17 compiles switches, as far as calls are concerned:
 *
 * - a switch on a String calls hashCode() on the selector and equals() for the
 *   matching labels;
 * - a switch on an enum reads an int[] "switch map" from a synthetic class
 *   (Main$1, $SwitchMap$switches$Color) whose <clinit> fills it by calling the enum's
 *   values() and ordinal(); the switch itself calls ordinal() on the selector;
 * - switch expressions (->, yield) compile the same way.
 *
 * javac 17 emits invokedynamic with java.lang.runtime.SwitchBootstraps only for
 * pattern matching in switch, a preview feature in 17 (--enable-preview); this
 * program is compiled without preview, so there is no switch bootstrap here. The
 * enumSwitch/typeSwitch bootstraps of javac 21+ would need a javac 21+ program and
 * JDK, like testdata/java/java25.
 */
package switches;

public class Main {
    public static void main(String[] args) {
        String s = args.length > 0 ? args[0] : "b";
        switch (s) { // @calls(java.lang.String.hashCode, java.lang.String.equals)
            case "a":
                one(); // @callees(switches.Main.one)
                break;
            case "b":
                two(); // @callees(switches.Main.two)
                break;
            default:
                break;
        }
        Color c = args.length > 1 ? Color.RED : Color.BLUE;
        switch (c) { // @calls(switches.Main$1.<clinit>, java.lang.Enum.ordinal)
            case RED:
                one();
                break;
            default:
                two();
        }
        int k = switch (c) { // @calls(switches.Main$1.<clinit>, java.lang.Enum.ordinal)
            case RED -> 1;
            case GREEN -> {
                two(); // @callees(switches.Main.two)
                yield 2;
            }
            default -> 3;
        };
        System.out.println(k);
    }

    // @edge(switches.Main$1.<clinit>, switches.Color.values) @edge(switches.Main$1.<clinit>, java.lang.Enum.ordinal)

    static void one() {
    }

    static void two() {
    }
}

enum Color {
    RED, GREEN, BLUE
}
