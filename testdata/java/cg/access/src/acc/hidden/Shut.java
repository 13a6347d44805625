/*
 * The negative: non-public methods that acc.Lookups tries to look up with a Lookup
 * that has no access to them. No handle of the program may call them at levels 2-6.
 */
package acc.hidden;

public class Shut {
    private void shut() {
    }

    void hidden() {
    }
}
