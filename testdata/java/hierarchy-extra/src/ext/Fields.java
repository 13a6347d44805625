/*
 * Field resolution (JVMS 5.4.3.2): the class itself, then its direct
 * superinterfaces (recursively, in order), then its superclass (recursively).
 * FSub inherits X from both FI and FBase; javac rejects a use of FSub.X as
 * ambiguous, but the JVM's order finds FI.X, since superinterfaces come before
 * the superclass. The class a field resolves to is the one getstatic initialises.
 * See Phantoms.java for the grammar.
 */
package ext;

interface FI0 {
    int Z = 0;
}

interface FI extends FI0 {
    int X = 1;
}

class FBase {
    static int X = 2;
    static int Y = 3;
    int inst;
}

class FSub extends FBase implements FI {
}

class FSubSub extends FSub {
    static int Y = 4;
}

final class Fields {
    private Fields() {
    }

    // FIELD ext/FSub.X:I -> ext/FI.X
    // FIELD ext/FSubSub.X:I -> ext/FI.X
    // FIELD ext/FSub.Y:I -> ext/FBase.Y
    // FIELD ext/FSubSub.Y:I -> ext/FSubSub.Y
    // FIELD ext/FSubSub.Z:I -> ext/FI0.Z
    // FIELD ext/FSub.inst:I -> ext/FBase.inst
    // FIELD ext/FSub.X:J -> !NoSuchFieldError
    // FIELD ext/FSub.nothing:I -> !NoSuchFieldError
}
