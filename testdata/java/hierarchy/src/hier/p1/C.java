/*
 * p1.C extends p2.B: its public m overrides p2.B.m and, being in the same
 * run-time package as p1.A, also p1.A.m (see the table in p1/A.java).
 */
package hier.p1;

import hier.Trace;

public class C extends hier.p2.B {
    @Override
    public void m() {
        Trace.hit("hier/p1/C.m");
    }
}
