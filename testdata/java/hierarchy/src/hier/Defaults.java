/*
 * Default methods and the "maximally-specific superinterface method" rules
 * (JVMS 5.4.3.3 step 3, 5.4.3.4, 5.4.6):
 *   - I declares default d; J extends I and overrides d; K implements I, J:
 *     J.d is the only maximally-specific method, so both resolution through K
 *     and selection on a K receiver pick J.d (I.d is hidden by the more specific
 *     J.d even though K names I first);
 *   - J3 extends J and declares nothing: resolution through J3 finds J.d;
 *   - class wins over interface: K3 extends Base2 (which has a public d) and
 *     implements I: selection on K3 picks Base2.d;
 *   - a private method is not a candidate for selection: K4 extends P1, which
 *     has a private d, and implements I: selection of I.d on K4 picks I.d,
 *     while P1's own call d() selects the private P1.d even on a K4 receiver.
 *     Resolution of the Methodref K4.d()V, however, finds the private P1.d
 *     (step 2 of 5.4.3.3 does not skip private methods) and fails the access
 *     check: javac compiles k4.d() to exactly that, and HotSpot throws
 *     IllegalAccessError;
 *   - re-abstraction: J2 extends I and redeclares d abstract; the abstract
 *     class K2 implements J2 without implementing d: selection on K2 has no
 *     non-abstract maximally-specific method (AbstractMethodError), its
 *     subclass K2Impl implements d;
 *   - an ambiguous diamond: L1 and L2 both declare default hello; Both
 *     implements both and must override hello, calling each default with
 *     L1.super.hello() / L2.super.hello() (invokespecial of an interface
 *     method: selection starts at the named interface);
 *   - interface static methods are not inherited: I.si resolves, K.si does not.
 */
package hier;

interface I {
    default void d() {
        Trace.hit("hier/I.d");
    }

    static void si() {
        Trace.hit("hier/I.si");
    }
}

interface J extends I {
    @Override
    default void d() {
        Trace.hit("hier/J.d");
    }
}

interface J3 extends J {
}

class K implements I, J {
}

class K5 implements J3 {
}

class Base2 {
    public void d() {
        Trace.hit("hier/Base2.d");
    }
}

class K3 extends Base2 implements I {
}

class P1 {
    private void d() {
        Trace.hit("hier/P1.d");
    }

    void callD() {
        d(); // SELECT invokevirtual receiver=hier/K4 hier/P1.d()V -> hier/P1.d
        // RESOLVE invokevirtual caller=hier/P1 hier/P1.d()V -> hier/P1.d
    }
}

class K4 extends P1 implements I {
}

interface J2 extends I {
    @Override
    void d(); // re-abstracts I.d
}

abstract class K2 implements J2 {
}

class K2Impl extends K2 {
    @Override
    public void d() {
        Trace.hit("hier/K2Impl.d");
    }
}

interface L1 {
    default void hello() {
        Trace.hit("hier/L1.hello");
    }
}

interface L2 {
    default void hello() {
        Trace.hit("hier/L2.hello");
    }
}

class Both implements L1, L2 {
    @Override
    public void hello() {
        L1.super.hello(); // SELECT invokespecial caller=hier/Both hier/L1.hello()V -> hier/L1.hello
        Trace.expect("hier/L1.hello");
        L2.super.hello(); // SELECT invokespecial caller=hier/Both hier/L2.hello()V -> hier/L2.hello
        Trace.expect("hier/L2.hello");
        Trace.hit("hier/Both.hello");
    }
}

final class Defaults {
    private Defaults() {
    }

    static void run() {
        I i = new K();
        i.d(); // SELECT invokeinterface receiver=hier/K hier/I.d()V -> hier/J.d
        // RESOLVE invokeinterface hier/I.d()V -> hier/I.d
        Trace.expect("hier/J.d");

        K k = new K();
        k.d(); // RESOLVE invokevirtual hier/K.d()V -> hier/J.d
        // SELECT invokevirtual receiver=hier/K hier/K.d()V -> hier/J.d
        Trace.expect("hier/J.d");

        J3 j3 = new K5();
        j3.d(); // RESOLVE invokeinterface hier/J3.d()V -> hier/J.d
        // SELECT invokeinterface receiver=hier/K5 hier/J3.d()V -> hier/J.d
        Trace.expect("hier/J.d");

        I i3 = new K3();
        i3.d(); // SELECT invokeinterface receiver=hier/K3 hier/I.d()V -> hier/Base2.d
        Trace.expect("hier/Base2.d");
        new K3().d(); // RESOLVE invokevirtual hier/K3.d()V -> hier/Base2.d
        Trace.expect("hier/Base2.d");

        I i4 = new K4();
        i4.d(); // SELECT invokeinterface receiver=hier/K4 hier/I.d()V -> hier/I.d
        Trace.expect("hier/I.d");
        K4 k4 = new K4();
        k4.callD();
        Trace.expect("hier/P1.d");
        Trace.expectError("IllegalAccessError", () -> k4.d()); // RESOLVE invokevirtual caller=hier/Defaults hier/K4.d()V -> !IllegalAccessError
        // RESOLVE invokevirtual hier/K4.d()V -> hier/P1.d

        J2 j2 = new K2Impl();
        j2.d(); // SELECT invokeinterface receiver=hier/K2Impl hier/J2.d()V -> hier/K2Impl.d
        // RESOLVE invokeinterface hier/J2.d()V -> hier/J2.d
        Trace.expect("hier/K2Impl.d");
        // SELECT invokeinterface receiver=hier/K2 hier/J2.d()V -> !AbstractMethodError
        // SELECT invokeinterface receiver=hier/K2 hier/I.d()V -> !AbstractMethodError
        // SELECT invokeinterface receiver=hier/K2Impl hier/I.d()V -> hier/K2Impl.d

        L1 l1 = new Both();
        l1.hello(); // SELECT invokeinterface receiver=hier/Both hier/L1.hello()V -> hier/Both.hello
        Trace.expect("hier/Both.hello");
        new Both().hello(); // RESOLVE invokevirtual hier/Both.hello()V -> hier/Both.hello
        Trace.expect("hier/Both.hello");
        // SELECT invokeinterface receiver=hier/Both hier/L2.hello()V -> hier/Both.hello

        I.si(); // RESOLVE invokestatic hier/I.si()V -> hier/I.si
        Trace.expect("hier/I.si");
        // RESOLVE invokestatic hier/K.si()V -> !NoSuchMethodError
    }
}
