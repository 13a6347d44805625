package cont.sisu;

import javax.inject.Inject;
import javax.inject.Named;

/** A component the Sisu index names; Guice constructs it when Main asks for it. */
@Named("hello")
final class HelloGreeting implements Greeting {
    @Inject
    HelloGreeting() {
    }

    @Override
    public String text() {
        return "hello from the index";
    }
}
