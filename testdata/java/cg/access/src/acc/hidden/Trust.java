/*
 * A private method that acc.Lookups calls through findVirtual on the trusted Lookup
 * (IMPL_LOOKUP) moved to this class with in.
 */
package acc.hidden;

public class Trust {
    private void trust() { // @reachable
        System.out.println("trust");
    }
}
