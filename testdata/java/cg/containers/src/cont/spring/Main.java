package cont.spring;

import java.util.List;
import org.springframework.beans.BeanUtils;
import org.springframework.core.io.support.SpringFactoriesLoader;

// The program runs on Debian's Spring 4.3, Sisu 0.3.4 and Guice 4.2, compiled for Java 8
// (Sisu reads no newer class files); Correct-Env shows what the index files change,
// and every level from Encap-Respect on that Sisu's clones (cont.clone) are reached
// whatever the level (the value analyses of levels 3-5 try their sites too):
// @levels(2-6) @algos(cha) @release(8)
// @jars(spring3-core.jar, spring3-beans.jar, commons-logging.jar, sisu-inject.jar, guice.jar, atinject-jsr330-api.jar, aopalliance.jar, guava.jar, byte-buddy.jar)

/**
 * Loads the Plugins that META-INF/spring.factories lists (resources/): Spring's
 * SpringFactoriesLoader.instantiateFactory loads each name (ClassUtils.forName),
 * checks it is a Plugin, and calls its no-argument constructor through
 * getDeclaredConstructor(), makeAccessible and Constructor.newInstance. Then it makes
 * a bean as Spring's containers do, with BeanUtils.instantiateClass. Prints "listed"
 * and "unlisted".
 */
public final class Main {
    public static void main(String[] args) {
        List<Plugin> plugins = SpringFactoriesLoader.loadFactories(Plugin.class, Main.class.getClassLoader()); // @calls(org.springframework.core.io.support.SpringFactoriesLoader.loadFactories)
        for (Plugin p : plugins) {
            System.out.println(p.name());
        }
        System.out.println(BeanUtils.instantiateClass(UnlistedPlugin.class).name()); // @calls(org.springframework.beans.BeanUtils.instantiateClass)
    }
}

// At Correct-JDK the newInstance site of instantiateFactory is resolved from the
// index: it reaches the constructor of the one class spring.factories lists under
// Plugin (package-private: makeAccessible opens it), each edge naming the line of the
// file (not the line that lists it under Plugin2, which it does not implement), and
// neither a Plugin that no file lists nor NotAPlugin, which the file lists
// under Plugin2 but which is no Plugin2 (instantiateFactory would throw before it
// looks for a constructor):
// @edge[level=6](org.springframework.core.io.support.SpringFactoriesLoader.instantiateFactory, cont.spring.ListedPlugin.<init>)
// @because[level=6](org.springframework.core.io.support.SpringFactoriesLoader.instantiateFactory, cont.spring.ListedPlugin.<init>, META-INF/spring.factories:3 names cont.spring.ListedPlugin under cont.spring.Plugin)
// @!because[level=6](org.springframework.core.io.support.SpringFactoriesLoader.instantiateFactory, cont.spring.ListedPlugin.<init>, under cont.spring.Plugin2)
// @evidence[level=6](org.springframework.core.io.support.SpringFactoriesLoader.instantiateFactory, SpringFactoriesLoader at Correct-JDK: the classes META-INF/spring.factories files list)
// @!edge[level=6](org.springframework.core.io.support.SpringFactoriesLoader.instantiateFactory, cont.spring.UnlistedPlugin.<init>, cont.spring.NotAPlugin.<init>)
// At Correct-Env the site is unresolved: its fallback (every constructor, since
// Spring's and Sisu's setAccessible calls void Encap-Respect for it) reaches them all:
// @edge[level=5](org.springframework.core.io.support.SpringFactoriesLoader.instantiateFactory, cont.spring.ListedPlugin.<init>, cont.spring.UnlistedPlugin.<init>, cont.spring.NotAPlugin.<init>)
// @!evidence[level=5](org.springframework.core.io.support.SpringFactoriesLoader.instantiateFactory, spring.factories)
// Spring's bean instantiation has no index (bean definitions come from XML,
// configuration classes and component scanning): it keeps its fallback, and says so:
// @evidence[level=6](org.springframework.beans.BeanUtils.instantiateClass, no index: Spring creates the beans its bean definitions name)
// @edge[level=6](org.springframework.beans.BeanUtils.instantiateClass, cont.spring.UnlistedPlugin.<init>, cont.spring.NotAPlugin.<init>)
