package cont.spring;

/**
 * Listed in spring.factories under Plugin2, which it does not implement:
 * SpringFactoriesLoader.instantiateFactory would throw IllegalArgumentException before
 * it looks for a constructor.
 */
public final class NotAPlugin {
    public NotAPlugin() {
    }
}
