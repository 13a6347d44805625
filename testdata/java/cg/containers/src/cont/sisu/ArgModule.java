package cont.sisu;

import com.google.inject.AbstractModule;
import javax.inject.Named;

/**
 * A module without a no-argument constructor: Sisu's getDeclaredConstructor() fails
 * for it, so Sisu never constructs it.
 */
@Named
public final class ArgModule extends AbstractModule {
    private final String name;

    public ArgModule(String name) {
        this.name = name;
    }

    @Override
    protected void configure() {
        bindConstant().annotatedWith(javax.inject.Named.class).to(name);
    }
}
