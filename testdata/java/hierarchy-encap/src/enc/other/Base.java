/*
 * enc.other.Base: protected, package-private and private members seen from
 * package enc (Sub.java), and a stranger in this package (Stranger.java).
 */
package enc.other;

public class Base {
    protected Base() {
    }

    public void bPub() {
    }

    protected void bProt() {
    }

    protected static void bsProt() {
    }

    void bPkg() {
    }

    private void bPriv() {
    }
}
