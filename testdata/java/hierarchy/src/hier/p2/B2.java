/*
 * p2.B2 extends p1.A with a package-private m of its own, in another package
 * than p1.A.m, so it overrides nothing; p1.C2 (a subclass in p1) overrides
 * p1.A.m but not this m. callM2 is the call site for B2.m (accessible only
 * from hier.p2); see p1/A.java.
 */
package hier.p2;

import hier.Trace;

public class B2 extends hier.p1.A {
    void m() {
        Trace.hit("hier/p2/B2.m");
    }

    public static void callM2(B2 b) {
        b.m(); // SELECT invokevirtual receiver=hier/p1/C2 hier/p2/B2.m()V -> hier/p2/B2.m
        // SELECT invokevirtual receiver=hier/p2/B2 hier/p2/B2.m()V -> hier/p2/B2.m
        // RESOLVE invokevirtual caller=hier/p2/B2 hier/p2/B2.m()V -> hier/p2/B2.m
        // RESOLVE invokevirtual caller=hier/p1/C2 hier/p2/B2.m()V -> !IllegalAccessError
    }
}
