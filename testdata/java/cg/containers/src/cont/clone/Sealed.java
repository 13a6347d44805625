package cont.clone;

/** Never cloned: a final class has no subclasses, spun or not. */
public final class Sealed {
    public Sealed() {
    }
}
