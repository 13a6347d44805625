/*
 * Package-private methods across packages (JVMS 5.4.5 overriding, 5.4.6
 * selection) and protected access (5.4.4). The hierarchy spans hier.p1 and
 * hier.p2:
 *
 *   p1.A   { void m() }            package-private, also protected prot/sprot
 *   p2.B   extends p1.A { public void m() }   does NOT override p1.A.m: A.m is
 *                                  package-private and B is in another package
 *   p1.C   extends p2.B { public void m() }   overrides B.m (public) and also
 *                                  p1.A.m (same run-time package as A)
 *   p2.B2  extends p1.A { void m() }          package-private in p2: overrides nothing
 *   p1.C2  extends p2.B2 { void m() }         overrides p1.A.m, NOT p2.B2.m
 *   p1.A3  { void t() }            package-private
 *   p1.B3  extends p1.A3 { public void t() }  overrides A3.t (same package)
 *   p2.C3  extends p1.B3 { public void t() }  overrides B3.t, and so A3.t
 *                                  transitively (5.4.5, second case), although
 *                                  A3.t is package-private in another package
 *
 * The call sites are the static helpers callM/callT below (in p1) and
 * p2.B2.callM2 (in p2), so that the package-private methods are accessible.
 */
package hier.p1;

import hier.Trace;

public class A {
    void m() {
        Trace.hit("hier/p1/A.m");
    }

    protected void prot() {
        Trace.hit("hier/p1/A.prot");
    }

    protected static void sprot() {
        Trace.hit("hier/p1/A.sprot");
    }

    public static void callM(A a) {
        a.m(); // RESOLVE invokevirtual caller=hier/p1/A hier/p1/A.m()V -> hier/p1/A.m
        // SELECT invokevirtual receiver=hier/p1/A hier/p1/A.m()V -> hier/p1/A.m
        // SELECT invokevirtual receiver=hier/p2/B hier/p1/A.m()V -> hier/p1/A.m
        // SELECT invokevirtual receiver=hier/p1/C hier/p1/A.m()V -> hier/p1/C.m
        // SELECT invokevirtual receiver=hier/p2/B2 hier/p1/A.m()V -> hier/p1/A.m
        // SELECT invokevirtual receiver=hier/p1/C2 hier/p1/A.m()V -> hier/p1/C2.m
    }

    public static void callT(A3 a) {
        a.t(); // SELECT invokevirtual receiver=hier/p2/C3 hier/p1/A3.t()V -> hier/p2/C3.t
        // SELECT invokevirtual receiver=hier/p1/B3 hier/p1/A3.t()V -> hier/p1/B3.t
        // SELECT invokevirtual receiver=hier/p1/A3 hier/p1/A3.t()V -> hier/p1/A3.t
    }

    public static void run() {
        callM(new A());
        Trace.expect("hier/p1/A.m");
        callM(new hier.p2.B());
        Trace.expect("hier/p1/A.m");
        callM(new C());
        Trace.expect("hier/p1/C.m");
        callM(new hier.p2.B2());
        Trace.expect("hier/p1/A.m");
        callM(new C2());
        Trace.expect("hier/p1/C2.m");

        hier.p2.B b = new C();
        b.m(); // SELECT invokevirtual receiver=hier/p1/C hier/p2/B.m()V -> hier/p1/C.m
        // SELECT invokevirtual receiver=hier/p2/B hier/p2/B.m()V -> hier/p2/B.m
        Trace.expect("hier/p1/C.m");
        new hier.p2.B().m(); // RESOLVE invokevirtual hier/p2/B.m()V -> hier/p2/B.m
        Trace.expect("hier/p2/B.m");

        hier.p2.B2.callM2(new C2());
        Trace.expect("hier/p2/B2.m");
        hier.p2.B2.callM2(new hier.p2.B2());
        Trace.expect("hier/p2/B2.m");

        callT(new A3());
        Trace.expect("hier/p1/A3.t");
        callT(new B3());
        Trace.expect("hier/p1/B3.t");
        callT(new hier.p2.C3());
        Trace.expect("hier/p2/C3.t");

        new hier.p2.B().useProtected();

        // Access checks from outside the package of A (hier is not hier.p1).
        // RESOLVE invokevirtual caller=hier/Main hier/p1/A.m()V -> !IllegalAccessError
        // RESOLVE invokevirtual caller=hier/Main hier/p1/A.prot()V -> !IllegalAccessError
        // RESOLVE invokevirtual caller=hier/p2/B hier/p1/A.m()V -> !IllegalAccessError
    }
}
