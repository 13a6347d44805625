/*
 * Java 8+ interface methods: default methods (inherited, overridden, the maximally
 * specific one chosen among several superinterfaces, JVMS 5.4.3.3 and 5.4.6), static
 * interface methods (invokestatic of an InterfaceMethodref), private interface
 * methods (called from a default method), and Iface.super.m() calls (invokespecial
 * of an interface method).
 */
package ifaces;

public class Main {
    public static void main(String[] args) {
        Named n = args.length > 0 ? new Plain() : new Custom();
        n.name(); // @callees(ifaces.Named.name, ifaces.Custom.name, ifaces.Titled.name, ifaces.Pair.name, ifaces.Base.name)
        // Plain does not declare name: javac names Plain, the JVM resolves the default.
        new Plain().name(); // @callees(ifaces.Plain.<init>, ifaces.Named.name)

        // Both Named.name and Titled.name (Titled extends Named) are candidates for
        // Both; Titled.name is the maximally specific one.
        Both b = new Both();
        b.name(); // @callees(ifaces.Titled.name) @!calls(ifaces.Named.name)
        Named viaSuper = b;
        viaSuper.name(); // @calls(ifaces.Titled.name)

        Named.create(); // @callees(ifaces.Named.create) a static interface method
        n.loud(); // @callees(ifaces.Named.loud)

        Pair p = new Pair();
        p.name(); // @callees(ifaces.Pair.name)

        // A class's own (or superclass's) method wins over a default.
        Sub s = new Sub();
        s.name(); // @callees(ifaces.Base.name) @!calls(ifaces.Named.name)
    }
}

interface Named {
    default String name() { // @reachable
        return "named";
    }

    default String loud() {
        return shout(name()); // @callees(ifaces.Named.shout, ifaces.Named.name, ifaces.Custom.name, ifaces.Titled.name, ifaces.Pair.name, ifaces.Base.name)
    }

    private String shout(String s) { // @reachable
        return s.toUpperCase();
    }

    static Named create() {
        return new Plain(); // @callees(ifaces.Plain.<init>)
    }
}

interface Titled extends Named {
    @Override
    default String name() { // @reachable
        return "titled";
    }
}

interface Labelled {
    default String name() {
        return "labelled";
    }
}

class Plain implements Named {
    Plain() {
    }
}

class Custom implements Named {
    Custom() {
    }

    @Override
    public String name() {
        return "custom";
    }
}

class Both implements Named, Titled {
    Both() {
    }
}

// Two unrelated defaults: Pair must override, and picks both through Iface.super.
class Pair implements Titled, Labelled {
    Pair() {
    }

    @Override
    public String name() {
        return Titled.super.name() // @calls(ifaces.Titled.name) @!calls(ifaces.Pair.name)
            + Labelled.super.name(); // @callees(ifaces.Labelled.name)
    }
}

class Base {
    public String name() { // @reachable
        return "base";
    }
}

class Sub extends Base implements Named {
    Sub() {
    }
}
