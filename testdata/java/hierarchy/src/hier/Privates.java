/*
 * Private methods are never overridden (JVMS 5.4.5: a private method can
 * neither override nor be overridden; 5.4.6: a private resolved method is
 * selected as is). Priv has a private p and PrivSub a public p with the same
 * name and descriptor: Priv.callP's p() (javac 11+ emits invokevirtual for a
 * private method of the same class) runs Priv.p even on a PrivSub receiver.
 *
 * WithPrivate is an interface with a private instance method (called from a
 * default method with invokeinterface) and a private static method (called
 * with invokestatic on an InterfaceMethodref).
 */
package hier;

class Priv {
    private void p() {
        Trace.hit("hier/Priv.p");
    }

    void callP() {
        p(); // SELECT invokevirtual receiver=hier/PrivSub hier/Priv.p()V -> hier/Priv.p
        // SELECT invokevirtual receiver=hier/Priv hier/Priv.p()V -> hier/Priv.p
        // RESOLVE invokevirtual caller=hier/Priv hier/Priv.p()V -> hier/Priv.p
    }
}

class PrivSub extends Priv {
    public void p() {
        Trace.hit("hier/PrivSub.p");
    }
}

interface WithPrivate {
    private void helper() {
        Trace.hit("hier/WithPrivate.helper");
    }

    private static void staticHelper() {
        Trace.hit("hier/WithPrivate.staticHelper");
    }

    default void callHelper() {
        helper(); // SELECT invokeinterface receiver=hier/PrivImpl hier/WithPrivate.helper()V -> hier/WithPrivate.helper
        // RESOLVE invokeinterface caller=hier/WithPrivate hier/WithPrivate.helper()V -> hier/WithPrivate.helper
        Trace.expect("hier/WithPrivate.helper");
        staticHelper(); // RESOLVE invokestatic caller=hier/WithPrivate hier/WithPrivate.staticHelper()V -> hier/WithPrivate.staticHelper
        Trace.expect("hier/WithPrivate.staticHelper");
    }
}

class PrivImpl implements WithPrivate {
    // A public helper here does not override the private interface method.
    public void helper() {
        Trace.hit("hier/PrivImpl.helper");
    }
}

final class Privates {
    private Privates() {
    }

    static void run() {
        new PrivSub().callP();
        Trace.expect("hier/Priv.p");
        new Priv().callP();
        Trace.expect("hier/Priv.p");
        new PrivSub().p(); // RESOLVE invokevirtual hier/PrivSub.p()V -> hier/PrivSub.p
        Trace.expect("hier/PrivSub.p");
        new PrivImpl().callHelper();
        // RESOLVE invokevirtual caller=hier/Privates hier/Priv.p()V -> !IllegalAccessError
        // RESOLVE invokeinterface caller=hier/Privates hier/WithPrivate.helper()V -> !IllegalAccessError
    }
}
