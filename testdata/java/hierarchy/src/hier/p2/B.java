/*
 * p2.B extends p1.A. Its public m does not override the package-private
 * p1.A.m (different run-time package); see the table in p1/A.java.
 * useProtected accesses p1.A's protected members from a subclass in another
 * package: prot() on this (javac names B as the owner: the Methodref is
 * hier/p2/B.prot()V, resolved to p1.A.prot), super.prot() (invokespecial of
 * hier/p1/A.prot()V) and the protected static sprot().
 */
package hier.p2;

import hier.Trace;

public class B extends hier.p1.A {
    public void m() {
        Trace.hit("hier/p2/B.m");
    }

    public void useProtected() {
        prot(); // RESOLVE invokevirtual caller=hier/p2/B hier/p2/B.prot()V -> hier/p1/A.prot
        // SELECT invokevirtual receiver=hier/p2/B hier/p2/B.prot()V -> hier/p1/A.prot
        Trace.expect("hier/p1/A.prot");
        super.prot(); // SELECT invokespecial caller=hier/p2/B hier/p1/A.prot()V -> hier/p1/A.prot
        // RESOLVE invokespecial caller=hier/p2/B hier/p1/A.prot()V -> hier/p1/A.prot
        Trace.expect("hier/p1/A.prot");
        sprot(); // RESOLVE invokestatic caller=hier/p2/B hier/p2/B.sprot()V -> hier/p1/A.sprot
        Trace.expect("hier/p1/A.sprot");
    }
}
