/* Store's implementation: only Guice calls its package-private constructor. */
package inj;

import java.util.ArrayList;
import java.util.List;
import javax.inject.Inject;

class MemoryStore implements Store {
    private final Clock clock;
    private final List<String> entries = new ArrayList<>();

    @Inject
    MemoryStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void put(String entry) {
        entries.add(clock.now() + " " + entry);
    }

    @Override
    public int size() {
        return entries.size();
    }
}
