package cont.bb;

/** Subclassed at run time; public, as ByteBuddy's class loader sees it from outside. */
public class Greeter {
    public Greeter() { // @reachable
    }

    public String greet(String who) {
        return "hello " + who;
    }
}
