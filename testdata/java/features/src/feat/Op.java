/*
 * An enum whose constants have bodies (each constant with a body is compiled to
 * its own anonymous subclass Op$1, Op$2, ... overriding the abstract apply), a
 * constant without a body (MOD, using the enum's own toString), an enum
 * constructor with an argument, a private field, the implicit values()/valueOf
 * methods, and the synthetic $VALUES array filled in the static initialiser.
 */
package feat;

public enum Op {
    ADD("+") {
        @Override
        int apply(int a, int b) {
            return a + b;
        }
    },
    SUB("-") {
        @Override
        int apply(int a, int b) {
            return a - b;
        }
    },
    MUL("*") {
        @Override
        int apply(int a, int b) {
            return a * b;
        }

        @Override
        public String toString() {
            return "times";
        }
    },
    MOD("%");

    private final String symbol;

    Op(String symbol) {
        this.symbol = symbol;
    }

    /** Overridden by the constant bodies; MOD uses this one. */
    int apply(int a, int b) {
        return a % b;
    }

    String symbol() {
        return symbol;
    }
}
