// Loaded by name like Alpha; its initialiser shows which loading sites reach it.
package dflow;

public class Beta {
    static {
        System.out.println("Beta");
    }

    public Beta() {
    }
}
