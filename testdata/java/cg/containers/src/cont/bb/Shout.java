package cont.bb;

/** A static delegation target: only the spun subclass of Main.toStatic calls shout. */
public final class Shout {
    public static String shout(String who) { // @reachable
        return "HELLO " + who.toUpperCase();
    }

    /**
     * An instance method: MethodDelegation.to(Class) binds static methods only, so the
     * site of Main.toStatic has no edge to it (public, the libraries' reflective
     * fallbacks reach it at levels 5 and 6).
     */
    public String unbound(String who) {
        return who;
    }
}
