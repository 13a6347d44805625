/*
 * Calls the package-private Hidden.open: the receiver may be a virt.HiddenSub, but
 * HiddenSub.open does not override Hidden.open, so the only target is Hidden.open.
 */
package virt.other;

public class HiddenCaller {
    private HiddenCaller() {
    }

    public static void call(Hidden h) {
        h.open(); // @callees(virt.other.Hidden.open) @!calls(virt.HiddenSub.open)
    }
}
