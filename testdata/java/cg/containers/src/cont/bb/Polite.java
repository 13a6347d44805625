package cont.bb;

/** An instance delegation target: only the spun subclass of Main.toInstance calls greet. */
public final class Polite {
    public String greet(String who) { // @reachable
        return "good day, " + who;
    }
}
