// Loaded by name like Alpha; its initialiser shows which loading sites reach it.
package dflow;

public class Gamma {
    static {
        System.out.println("Gamma");
    }

    public Gamma() {
    }
}
