package cont.sisu;

import com.google.inject.AbstractModule;
import javax.inject.Named;

/**
 * Annotated like ExtraModule but missing from the index: in index mode Sisu never
 * sees it, so its constructor does not run.
 */
@Named
public final class UnlistedModule extends AbstractModule {
    public UnlistedModule() {
    }

    @Override
    protected void configure() {
    }
}
