package demo;

// Named by a system property only: its initialiser runs when Main loads it.
public class Slow {
    static {
        System.out.println("Slow");
    }
}
