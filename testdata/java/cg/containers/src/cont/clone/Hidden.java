package cont.clone;

/**
 * Never cloned: its no-argument constructor is package-private, which a clone, in
 * another run-time package than Hidden (its loader is Sisu's), cannot call (cloning it
 * fails with IllegalAccessError).
 */
public class Hidden {
    Hidden() {
    }
}
