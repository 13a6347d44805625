/*
 * The bindings: an interface bound to a package-private implementation, and a
 * provider method Guice calls by reflection.
 */
package inj;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;

class AppModule extends AbstractModule {
    @Override
    protected void configure() {
        bind(Store.class).to(MemoryStore.class);
    }

    @Provides
    Clock clock() {
        return new FixedClock(42);
    }
}
