/*
 * Non-virtual calls: invokestatic, invokespecial (constructors, private methods,
 * super calls) and calls whose target is fixed by the resolved method alone
 * (private methods of nest mates, final methods). Each of these call sites has
 * exactly one target, whatever the algorithm or level, so the expectations use
 * @callees (the exact set of the program's own callees on the line).
 *
 * Every method here is package-private or private, so at level 2 the NativeMethod
 * node (which reaches public methods) does not make it reachable: @!reachable holds
 * for the two methods nothing calls. At level 1 native code may call anything, so
 * nothing is unreachable there.
 */
package nonvirt;

public class Main {
    public static void main(String[] args) {
        helper(); // @callees(nonvirt.Main.helper)
        Main m = new Main(); // @callees(nonvirt.Main.<init>)
        m.secret(); // @callees(nonvirt.Main.secret)
        m.fixed(); // @callees(nonvirt.Main.fixed)
        Base b = new Leaf(); // @callees(nonvirt.Leaf.<init>)
        // A virtual call (see the virtual program): only Leaf is ever instantiated.
        b.describe(); // @callees[cha](nonvirt.Base.describe, nonvirt.Mid.describe, nonvirt.Leaf.describe) @callees[rta,level>=2](nonvirt.Leaf.describe)
        Leaf.inherited(); // @callees(nonvirt.Base.inherited) invokestatic names Leaf, resolves to Base
        new Outer().viaInner(); // @callees(nonvirt.Outer.<init>, nonvirt.Outer.viaInner)
        overloaded(1); // @callees(nonvirt.Main.overloaded(I)V) @!calls(nonvirt.Main.overloaded(J)V)
        overloaded(1L); // @callees(nonvirt.Main.overloaded(J)V)
        new Child().greet(); // @callees(nonvirt.Child.<init>, nonvirt.Child.greet)
    }

    static void helper() { // @reachable
    }

    private void secret() { // @reachable
    }

    final void fixed() { // @reachable
    }

    static void overloaded(int i) { // @reachable
    }

    static void overloaded(long l) { // @reachable
    }

    static void neverCalled() { // @!reachable[level>=2] @reachable[level=1]
    }

    private void neverCalledPrivate() { // @!reachable[level>=2]
        helper(); // @callees[level=1](nonvirt.Main.helper) only reachable (through native code) at level 1
    }
}

class Base {
    Base() { // @callees(java.lang.Object.<init>) the implicit super() is on the declaration line
    }

    static void inherited() { // @reachable
    }

    void describe() {
    }
}

class Mid extends Base {
    Mid() { // @callees(nonvirt.Base.<init>)
    }

    @Override
    void describe() {
        super.describe(); // @callees(nonvirt.Base.describe) @!calls(nonvirt.Mid.describe, nonvirt.Leaf.describe)
    }
}

class Leaf extends Mid {
    Leaf() {
        super(); // @callees(nonvirt.Mid.<init>) @!calls(nonvirt.Base.<init>)
    }

    void callSuper() {
        // Leaf does not declare describe: javac names Mid in the invokespecial, and
        // the JVM selects Mid.describe (the nearest superclass declaration).
        super.describe(); // @callees(nonvirt.Mid.describe)
    }

    @Override
    void describe() {
        callSuper(); // @calls(nonvirt.Leaf.callSuper)
    }
}

class Grand {
    void greet() {
    }
}

class Parent extends Grand {
}

class Child extends Parent {
    @Override
    void greet() {
        // Parent inherits greet from Grand: javac names Parent, the JVM selects Grand.greet.
        super.greet(); // @callees(nonvirt.Grand.greet)
    }
}

class Outer {
    private int count;

    private void bump() { // @reachable
        count++;
    }

    void viaInner() {
        new Inner().run(); // @callees(nonvirt.Outer$Inner.<init>, nonvirt.Outer$Inner.run)
    }

    class Inner {
        void run() {
            bump(); // @callees(nonvirt.Outer.bump) a nest mate's private method (invokevirtual since Java 11)
        }
    }
}
