package demo;

// Named by a system property only: its initialiser runs when Main loads it.
public class Light {
    static {
        System.out.println("Light");
    }
}
