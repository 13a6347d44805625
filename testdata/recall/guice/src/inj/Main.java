/*
 * The guice recall workload (analysis/recall): a small application that a real
 * dependency-injection container, Debian's Guice, puts together by reflection.
 * Every class it injects has a package-private @Inject constructor, Service gets a
 * field injected, AppModule provides the Clock with a @Provides method, and after
 * injection Hooks calls Service's private @Hook method through setAccessible, as
 * containers call @PostConstruct methods. Prints the report line.
 */
package inj;

import com.google.inject.Guice;
import com.google.inject.Injector;

public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Injector injector = Guice.createInjector(new AppModule());
        Service service = injector.getInstance(Service.class);
        Hooks.run(service);
        service.record("first");
        service.record("second");
        System.out.println(service.report());
    }
}
