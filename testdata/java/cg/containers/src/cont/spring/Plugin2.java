package cont.spring;

/** A second factory type, which spring.factories lists NotAPlugin under by mistake. */
public interface Plugin2 {
}
