/*
 * Transitive subtypes and supertypes through an interface diamond: D0 is
 * reached from DC along two paths (D1 and D2) but listed once. Also: an
 * abstract class method beats a default method of an interface (JVMS 5.4.6:
 * the superclass chain is searched before the superinterfaces), so selection
 * on the abstract class AbsX finds its abstract x (AbstractMethodError) and
 * never the default DefI.x. See Phantoms.java for the grammar.
 */
package ext;

interface D0 {
}

interface D1 extends D0 {
}

interface D2 extends D0 {
}

class DC implements D1, D2 {
}

class DD extends DC implements D0 {
}

interface DefI {
    default void x() {
    }
}

abstract class AbsX implements DefI {
    @Override
    public abstract void x();
}

class ConcX extends AbsX {
    @Override
    public void x() {
    }
}

final class Types {
    private Types() {
    }

    // SUBTYPES ext/D0 -> ext/D0 ext/D1 ext/D2 ext/DC ext/DD
    // SUBTYPES ext/D1 -> ext/D1 ext/DC ext/DD
    // SUBTYPES ext/DC -> ext/DC ext/DD
    // SUPERTYPES ext/DD -> ext/DD ext/DC java/lang/Object ext/D0 ext/D1 ext/D2
    // SUPERTYPES ext/D1 -> ext/D1 java/lang/Object ext/D0
    // SELECT invokeinterface receiver=ext/AbsX ext/DefI.x()V -> !AbstractMethodError
    // SELECT invokeinterface receiver=ext/ConcX ext/DefI.x()V -> ext/ConcX.x
    // RESOLVE invokevirtual ext/ConcX.x()V -> ext/ConcX.x
    // RESOLVE invokevirtual ext/AbsX.x()V -> ext/AbsX.x
}
