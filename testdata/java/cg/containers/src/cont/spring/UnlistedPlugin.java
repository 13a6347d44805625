package cont.spring;

/** A Plugin that no spring.factories lists: SpringFactoriesLoader never creates it. */
public final class UnlistedPlugin implements Plugin {
    public UnlistedPlugin() {
    }

    @Override
    public String name() {
        return "unlisted";
    }
}
