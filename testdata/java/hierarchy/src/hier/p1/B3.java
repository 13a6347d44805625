/*
 * p1.B3: public t overriding the package-private p1.A3.t (same package);
 * see p1/A.java.
 */
package hier.p1;

import hier.Trace;

public class B3 extends A3 {
    @Override
    public void t() {
        Trace.hit("hier/p1/B3.t");
    }
}
