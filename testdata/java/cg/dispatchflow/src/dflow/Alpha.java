// A class loaded by name; its initialiser shows which loading sites reach it.
package dflow;

public class Alpha {
    static {
        System.out.println("Alpha");
    }

    public Alpha() {
    }
}
