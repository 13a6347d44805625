package cont.spring;

/** The factory type spring.factories lists implementations of. */
public interface Plugin {
    String name();
}
