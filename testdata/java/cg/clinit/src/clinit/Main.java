/*
 * Class initialisation (JVMS 5.5, JLS 12.4.1): which instructions run which static
 * initialisers. An edge from an instruction to <clinit> models "this instruction
 * may initialise the class".
 *
 * Triggers: new, getstatic, putstatic and invokestatic initialise the class that
 * declares the field or method (not the class named in the instruction); a class's
 * initialisation first initialises its superclass and those superinterfaces that
 * declare non-abstract, non-static (default) methods. An interface's initialisation
 * does not initialise its superinterfaces.
 *
 * Not triggers: a `static final` field with a constant value (javac inlines it, no
 * getstatic), a class literal (ldc), creating an array of the class (anewarray),
 * casts and instanceof, and triggers of a class whose code is already running (the
 * caller's own class and its superclasses).
 *
 * Every <clinit> is reachable at every level anyway (native code may run any
 * initialiser, assumption-levels.md), so the expectations are about edges.
 */
package clinit;

public class Main {
    static int counter = Trace.hit("Main"); // @calls(clinit.Trace.hit, clinit.Trace.<clinit>)

    static { // @reachable
        counter++;
    }

    public static void main(String[] args) {
        new Child(); // @callees(clinit.Child.<init>, clinit.Child.<clinit>, clinit.Parent.<clinit>)
        int a = Holder.value; // @callees(clinit.Holder.<clinit>)
        Writer.value = 5; // @callees(clinit.Writer.<clinit>)
        Util.twice(a); // @callees(clinit.Util.twice, clinit.Util.<clinit>)
        // twice is declared in Util: only Util is initialised, not SubUtil.
        SubUtil.twice(a); // @callees(clinit.Util.twice, clinit.Util.<clinit>) @!calls(clinit.SubUtil.<clinit>)
        // A field declared in Holder, named through SubHolder: only Holder.
        int b = SubHolder.value; // @callees(clinit.Holder.<clinit>) @!calls(clinit.SubHolder.<clinit>)
        // A compile-time constant is inlined: no getstatic, no initialisation.
        int k = Consts.K; // @!calls(clinit.Consts.<clinit>)
        String n = Consts.NAME; // @!calls(clinit.Consts.<clinit>)
        int notConst = Consts.COMPUTED; // @callees(clinit.Consts.<clinit>)
        Class<?> c = Literal.class; // @!calls(clinit.Literal.<clinit>)
        Literal[] arr = new Literal[3]; // @!calls(clinit.Literal.<clinit>)
        Object o = arr;
        boolean is = o instanceof Literal; // @!calls(clinit.Literal.<clinit>)
        counter += a + b + k + n.length() + notConst + (is ? 1 : 0) + c.hashCode();
        // Triggers of the running class itself do nothing.
        counter = counter + 1; // @!calls(clinit.Main.<clinit>)
        helper(); // @callees(clinit.Main.helper) @!calls(clinit.Main.<clinit>)

        // Interfaces: a class's initialisation initialises the superinterfaces that
        // declare default methods (WithDefault), not the others (NoDefault).
        new Impl(); // @callees(clinit.Impl.<init>, clinit.Impl.<clinit>, clinit.WithDefault.<clinit>) @!calls(clinit.NoDefault.<clinit>)
        // A field declared in an interface, named through an implementing class:
        // only the interface is initialised.
        Object f = Impl.FIELD; // @callees(clinit.NoDefault.<clinit>) @!calls(clinit.Impl.<clinit>)
        // An interface's initialisation does not initialise its superinterfaces.
        Object g = SubIface.OTHER; // @callees(clinit.SubIface.<clinit>) @!calls(clinit.WithDefault.<clinit>)
        // invokestatic of an interface's static method initialises the interface.
        WithDefault.make(); // @callees(clinit.WithDefault.make, clinit.WithDefault.<clinit>)
        counter += f.hashCode() + g.hashCode();
        new Sub().run(); // @callees(clinit.Sub.<init>, clinit.Sub.run, clinit.Sub.<clinit>, clinit.Parent.<clinit>)
        Nest.Inner.touch(); // @callees(clinit.Nest$Inner.touch, clinit.Nest$Inner.<clinit>) @!calls(clinit.Nest.<clinit>)
    }

    static void helper() {
    }
}

class Trace {
    static final StringBuilder LOG = new StringBuilder(); // @calls(java.lang.StringBuilder.<init>)

    static int hit(String what) {
        LOG.append(what).append(' ');
        return 1;
    }
}

class Parent {
    static int p = Trace.hit("Parent");

    Parent() {
    }

    static void parentStatic() {
    }
}

class Child extends Parent {
    static int c = Trace.hit("Child");

    Child() {
    }
}

class Sub extends Parent {
    static int s = Trace.hit("Sub");

    Sub() {
    }

    void run() {
        // Sub's code runs only once Sub, hence Parent, is initialised.
        parentStatic(); // @callees(clinit.Parent.parentStatic) @!calls(clinit.Parent.<clinit>)
        int v = Parent.p; // @!calls(clinit.Parent.<clinit>)
        v += Holder.value; // @callees(clinit.Holder.<clinit>)
    }
}

class Holder {
    static int value = Trace.hit("Holder");
}

class SubHolder extends Holder {
    static int sub = Trace.hit("SubHolder");
}

class Writer {
    static int value;

    static {
        Trace.hit("Writer"); // @callees(clinit.Trace.hit, clinit.Trace.<clinit>)
    }
}

class Util {
    static int u = Trace.hit("Util");

    static int twice(int x) {
        return 2 * x;
    }
}

class SubUtil extends Util {
    static int s = Trace.hit("SubUtil");
}

class Consts {
    static final int K = 42;
    static final String NAME = "consts";
    static final int COMPUTED = Trace.hit("Consts");
}

class Literal {
    static int l = Trace.hit("Literal");
}

interface WithDefault {
    Object W = Trace.hit("WithDefault");

    default void d() {
    }

    static WithDefault make() {
        return null;
    }
}

interface NoDefault {
    Object FIELD = Trace.hit("NoDefault");

    void m();
}

interface SubIface extends WithDefault {
    Object OTHER = Trace.hit("SubIface");
}

class Impl implements WithDefault, NoDefault {
    static int i = Trace.hit("Impl");

    Impl() {
    }

    public void m() {
    }
}

class Nest {
    static int n = Trace.hit("Nest");

    static class Inner {
        static int i = Trace.hit("Inner");

        static void touch() {
        }
    }
}
