/*
 * Never allocated; its constructor is package-private in another package than Main,
 * so at Encap-Respect no reflective site of Main may create it: under RTA its
 * toString is not a target of calls on Object.
 */
package refl.other;

public class NotMade {
    static int n;

    static {
        n = 1;
    }

    NotMade() {
    }

    public String toString() {
        return "not made";
    }
}
