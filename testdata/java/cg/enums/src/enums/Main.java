/*
 * Enums. An enum constant is a static final field set by the enum's <clinit>, which
 * constructs every constant (a constant with a body is an instance of an anonymous
 * subclass, Op$1, Op$2) and builds the $VALUES array (javac 17: with the private
 * static $values()). values() clones $VALUES (an array clone: Object.clone only);
 * valueOf(String) calls Enum.valueOf. name() and ordinal() are final in Enum.
 */
package enums;

public class Main {
    public static void main(String[] args) {
        Color c = Color.RED; // @callees(enums.Color.<clinit>)
        c.hex(); // @callees(enums.Color.hex)
        Color[] all = Color.values(); // @callees(enums.Color.values, enums.Color.<clinit>)
        Color g = Color.valueOf("GREEN"); // @callees(enums.Color.valueOf, enums.Color.<clinit>)
        String n = c.name(); // @calls(java.lang.Enum.name)
        int o = g.ordinal(); // @calls(java.lang.Enum.ordinal)

        Op op = args.length > 0 ? Op.PLUS : Op.TIMES;
        op.apply(2, 3); // @callees(enums.Op$1.apply, enums.Op$2.apply) @!calls(enums.Op.apply)
        op.symbol(); // @callees(enums.Op.symbol, enums.Op$2.symbol)
        Level l = Level.HIGH;
        l.rank(); // @callees(enums.Level.rank)
        System.out.println(n + o + all.length);
    }
}

enum Color { // @calls(enums.Color.$values)
    RED("#f00"), // @calls(enums.Color.<init>)
    GREEN("#0f0"); // @calls(enums.Color.<init>)

    private final String hex;

    Color(String hex) { // @reachable
        this.hex = hex;
    }

    String hex() {
        return hex;
    }

    // values() clones the $VALUES array: only Object.clone, no class's clone.
    // @edge(enums.Color.values, java.lang.Object.clone) @!edge(enums.Color.values, java.util.ArrayList.clone)
}

enum Op {
    PLUS { // @calls(enums.Op$1.<init>)
        int apply(int a, int b) {
            return a + b;
        }
    },
    TIMES { // @calls(enums.Op$2.<init>)
        int apply(int a, int b) {
            return a * b;
        }

        @Override
        String symbol() {
            return "*";
        }
    };

    abstract int apply(int a, int b);

    String symbol() {
        return name();
    }
}

interface Ranked {
    int rank();
}

enum Level implements Ranked {
    LOW, HIGH;

    public int rank() {
        return ordinal();
    }
}
