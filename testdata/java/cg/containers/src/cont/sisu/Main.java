package cont.sisu;

import com.google.inject.Guice;
import com.google.inject.Injector;
import org.eclipse.sisu.space.BeanScanning;
import org.eclipse.sisu.space.SpaceModule;
import org.eclipse.sisu.space.URLClassSpace;

/**
 * Starts Sisu in index mode: the components are the classes that
 * META-INF/sisu/javax.inject.Named (resources/) lists: HelloGreeting, which Guice
 * constructs when main asks for it, and ExtraModule, which Sisu's
 * QualifiedTypeBinder.newInstance constructs (getDeclaredConstructor(),
 * setAccessible(true), Constructor.newInstance) and installs. Compiled for Java 8:
 * Debian's Sisu 0.3.4 reads no newer class files. Prints "hello from the index 1"
 * (on JDK 17 with --add-opens java.base/java.lang=ALL-UNNAMED, which Guice's AOP
 * needs to define its classes).
 */
public final class Main {
    public static void main(String[] args) {
        URLClassSpace space = new URLClassSpace(Main.class.getClassLoader()); // @calls(org.eclipse.sisu.space.URLClassSpace.<init>)
        Injector injector = Guice.createInjector(new SpaceModule(space, BeanScanning.INDEX));
        Greeting g = injector.getInstance(HelloGreeting.class);
        System.out.println(g.text() + " " + injector.getInstance(Counter.class).next());
    }
}

// From Correct-Cast on, the site of QualifiedTypeBinder.newInstance is resolved by the
// casts of its callers (installModule's to Module, registerMediator's to Mediator):
// it reaches the constructors of the class path's modules, ExtraModule, which the index
// lists, and UnlistedModule, which no index lists but component scanning would find;
// not ArgModule's constructor, which takes an argument where newInstance passes none
// (Constructor.newInstance rejects it), nor the component HelloGreeting nor Counter,
// which are no modules:
// @edge[level>=5](org.eclipse.sisu.space.QualifiedTypeBinder.newInstance, cont.sisu.ExtraModule.<init>, cont.sisu.UnlistedModule.<init>)
// @!edge[level>=5](org.eclipse.sisu.space.QualifiedTypeBinder.newInstance, cont.sisu.HelloGreeting.<init>, cont.sisu.Counter.<init>, cont.sisu.ArgModule.<init>)
// The index is not the complete source of the names (Sisu chooses index or component
// scanning at run time, and its own launchers, which read the choice from
// properties, are reachable), so it does not narrow the site; at Correct-JDK the edge
// to the class it lists names its line, and the site says that only component
// scanning finds the others:
// @because[level=6](org.eclipse.sisu.space.QualifiedTypeBinder.newInstance, cont.sisu.ExtraModule.<init>, META-INF/sisu/javax.inject.Named:2 names cont.sisu.ExtraModule)
// @!because[level=6](org.eclipse.sisu.space.QualifiedTypeBinder.newInstance, cont.sisu.UnlistedModule.<init>, names cont.sisu.UnlistedModule)
// @evidence[level=6](org.eclipse.sisu.space.QualifiedTypeBinder.newInstance, no index lists the others: only component scanning of the class space)
// @!because[level=5](org.eclipse.sisu.space.QualifiedTypeBinder.newInstance, cont.sisu.ExtraModule.<init>, javax.inject.Named)
