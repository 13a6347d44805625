/*
 * p1.C2 extends p2.B2: its package-private m overrides p1.A.m (same package)
 * but not p2.B2.m (package-private in another package); see p1/A.java.
 */
package hier.p1;

import hier.Trace;

public class C2 extends hier.p2.B2 {
    void m() {
        Trace.hit("hier/p1/C2.m");
    }
}
