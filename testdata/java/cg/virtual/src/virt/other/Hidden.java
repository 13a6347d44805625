/*
 * A class with a package-private method, and a caller in the same package.
 */
package virt.other;

public class Hidden {
    public Hidden() {
    }

    void open() { // @reachable
    }
}
