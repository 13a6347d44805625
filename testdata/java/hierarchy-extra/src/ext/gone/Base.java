/* Left out of the hierarchy by the EXCLUDE directive in ext/Phantoms.java. */
package ext.gone;

public class Base {
    public int gone;

    public void fromBase() {
    }
}
