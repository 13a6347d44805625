package cont.sisu;

import com.google.inject.AbstractModule;
import javax.inject.Named;

/**
 * A Guice module the Sisu index names: Sisu's QualifiedTypeBinder instantiates it
 * itself (getDeclaredConstructor(), setAccessible(true), newInstance()) and installs it.
 */
@Named
final class ExtraModule extends AbstractModule {
    ExtraModule() {
    }

    @Override
    protected void configure() {
        bind(Counter.class).toInstance(new Counter());
    }
}
