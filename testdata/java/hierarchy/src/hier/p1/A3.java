/*
 * p1.A3 has a package-private t, overridden in the same package by p1.B3's
 * public t, which p2.C3 overrides in turn: C3.t overrides A3.t transitively
 * (JVMS 5.4.5); see p1/A.java.
 */
package hier.p1;

import hier.Trace;

public class A3 {
    void t() {
        Trace.hit("hier/p1/A3.t");
    }
}
