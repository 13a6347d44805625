package demo;

// Named by a system property only: its initialiser runs when Main loads it.
public class Fast {
    static {
        System.out.println("Fast");
    }
}
