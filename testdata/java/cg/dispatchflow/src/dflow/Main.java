/*
 * Correct-String (4) flow of names, Class objects and Method objects through the
 * returns of overridable methods (invokevirtual): the union of the returns of every
 * method class hierarchy analysis selects for the call, each with its parameters
 * bound to the call's arguments. The closed world of AppClasses and Behaved-CLs make
 * that set complete (the call graph's own edges rest on it).
 *
 * Negative cases: an override returning a field written from outside, a native
 * override, an interface call (a lambda implements the interface), an override
 * returning its argument when the argument is a public parameter, and
 * Properties.getProperty (a value from outside whatever its implementation).
 */
// @levels(all) @algos(cha)
package dflow;

import java.lang.reflect.Method;

public class Main {
    public static void main(String[] args) throws Exception {
        Naming n = args.length > 0 ? new Naming.First() : args.length > 1 ? new Naming.Third() : new Naming.Picky();
        byName(n);
        byKind(n);
        picked(n, args.length > 2 ? "x" : "dflow.Alpha");
        open(args.length > 3 ? new Open.Fixed() : new Open.FromField());
        foreign(new Native.Plain());
        Namer lambda = () -> "dflow.Gamma";
        byInterface(args.length > 4 ? lambda : new Named());
        method(new Widgets.Big());
        fromProperties(System.getProperties());
    }

    // Every override of name() returns a constant: Alpha or Beta, never Gamma.
    public static void byName(Naming n) throws Exception {
        Class.forName(n.name()); // @site[level>=4](resolved, loading) @calls(dflow.Alpha.<clinit>, dflow.Beta.<clinit>) @!calls[level>=4](dflow.Gamma.<clinit>)
    }

    // Class objects returned by overrides: newInstance creates Alpha or Beta.
    public static void byKind(Naming n) throws Exception {
        n.kind().getDeclaredConstructor().newInstance(); // @site[level>=4](resolved, newInstance) @calls(dflow.Alpha.<init>, dflow.Beta.<init>) @!calls[level>=4](dflow.Gamma.<init>)
    }

    // Picky.pick returns its argument, bound per call: a constant here, so the site
    // resolves to Alpha (Naming.pick) and Beta; with a public parameter it does not.
    public static void picked(Naming n, String s) throws Exception {
        Class.forName(n.pick("dflow.Beta")); // @site[level>=4](resolved, loading) @calls(dflow.Alpha.<clinit>, dflow.Beta.<clinit>) @!calls[level>=4](dflow.Gamma.<clinit>)
        Class.forName(n.pick(s)); // @site(unresolved, loading) @calls(dflow.Gamma.<clinit>)
    }

    // One override returns a public non-final field: unknown.
    public static void open(Open o) throws Exception {
        Class.forName(o.name()); // @site(unresolved, loading) @calls(dflow.Alpha.<clinit>, dflow.Gamma.<clinit>)
    }

    // One override is native: unknown.
    public static void foreign(Native x) throws Exception {
        Class.forName(x.name()); // @site(unresolved, loading) @calls(dflow.Gamma.<clinit>)
    }

    // An interface call may run a lambda's body: not followed.
    public static void byInterface(Namer n) throws Exception {
        Class.forName(n.name()); // @site(unresolved, loading) @calls(dflow.Alpha.<clinit>, dflow.Gamma.<clinit>)
    }

    // Properties.getProperty is virtual, but a value from outside by definition: the
    // specification point is this call, not the JDK's implementation (checked by
    // TestVirtualReturnPoints).
    public static void fromProperties(java.util.Properties p) throws Exception {
        Class.forName(p.getProperty("dflow.impl")); // @site(unresolved, loading) @calls(dflow.Alpha.<clinit>)
    }

    // A Method object returned by overrides: invoke calls Widgets.Big.grow or
    // Widgets.Small.grow, not shrink.
    public static void method(Widgets w) throws Exception {
        Method m = w.action();
        m.invoke(w); // @site[level>=4](resolved, invoke) @calls(dflow.Widgets$Big.grow, dflow.Widgets$Small.grow) @!calls[level>=4](dflow.Widgets$Big.shrink, dflow.Widgets$Small.shrink)
    }
}
