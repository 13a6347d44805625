/*
 * Members of another package: the public ones are reflective targets at every level,
 * the private, protected and package-private ones only at Behaved-CLs.
 */
package refl.other;

public class Hidden {
    static int seed;

    static {
        seed = 7;
    }

    private Hidden() {
    }

    private Hidden(int n) {
        seed = n;
    }

    public void open() {
    }

    private void secret() {
    }

    protected void guarded() {
    }
}
