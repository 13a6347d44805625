/*
 * p2.C3 extends p1.B3: its public t overrides B3.t and, transitively, the
 * package-private p1.A3.t (JVMS 5.4.5); see p1/A.java.
 */
package hier.p2;

import hier.Trace;

public class C3 extends hier.p1.B3 {
    @Override
    public void t() {
        Trace.hit("hier/p2/C3.t");
    }
}
