package demo;

// Named by a system property only: its initialiser runs when Main loads it.
public class Dark {
    static {
        System.out.println("Dark");
    }
}
