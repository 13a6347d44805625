/* Another class with methods of the same names as Widget's. */
package vflow;

public class Gadget {
    static {
        System.out.println("Gadget");
    }

    public Gadget() {
    }

    public void start() {
    }

    public void stop() {
    }

    public void resize(int n) {
    }
}
