/*
 * Correct-Env (level 5) and above: the run's system properties are those of the
 * analysed environment (docs/assumption-levels.md; issue 28 item 3). That is the
 * configured values (--env) over the JDK's defaults, the properties the JVM sets
 * from the machine (unknown unless configured), and what reachable code sets. Any
 * other property is unset: System.getProperty(k) is null, getProperty(k, d) is d.
 *
 * The program runs with no -D option (the harness configures no --env). Were no
 * reachable code to set them:
 * - envprops.plugin would be unset: the Class.forName under `n != null` would load
 *   nothing, and the constructor call on its class would create nothing;
 * - envprops.list likewise, through FileSystems' idiom (split a list of class
 *   names and load each);
 * - envprops.other would be unset, so getProperty's default would apply: Builtin;
 * - envprops.late is written by Setter.configure, and user.name is set by the JVM
 *   from the machine: unknown either way;
 * - envprops.action, read in an anonymous privileged action's run (see
 *   privileged()), would be unset: its site would load nothing;
 * - fromProperty's key is its parameter, which its callers give two literals
 *   (ForkJoinPool.newInstanceFromSystemProperty's idiom): envprops.factory and
 *   envprops.handler, both unset, so its Class.forName loads nothing;
 * - security properties likewise: configured, in the JDK's java.security, written
 *   by Security.setProperty (unknown), or unset (see security()).
 * TestUnsetProperties checks those readings on this program's sites.
 *
 * But reachable code of the JDK may set any property: at levels 5 and 6 the JDK
 * still has unresolved reflective and method-handle calls whose fallback is every
 * public method, System.setProperty and System.getProperties among them, with
 * arguments the analysis does not follow (the first found on JDK 17 is
 * MethodHandleImpl$BindCaller.checkInjectedInvoker's handle invocation). So every
 * site below is unresolved, and the specification points of their values name the
 * call that may set the property. main's sites are resolved before that call is
 * found (main is visited first) and must be answered again once it is: were they
 * not, they would stay resolved to nothing.
 */
package envprops;

import java.security.AccessController;
import java.security.PrivilegedAction;
import java.security.Security;

// @levels(5,6)
public class Main {
    public static void main(String[] args) throws Exception {
        String late = System.getProperty("envprops.late");
        if (late != null) {
            Class.forName(late); // @site(unresolved, loading)
        }
        String n = System.getProperty("envprops.plugin");
        if (n != null) {
            Class<?> c = Class.forName(n); // @site(unresolved, loading)
            c.getDeclaredConstructor().newInstance(); // @calls(envprops.Plugin.<init>)
        }
        String list = System.getProperty("envprops.list");
        if (list != null) {
            for (String cn : list.split(",")) {
                Class.forName(cn); // @site(unresolved, loading)
            }
        }
        Class.forName(System.getProperty("envprops.other", "envprops.Builtin")); // @site(unresolved, loading)
        String user = System.getProperty("user.name");
        if (user != null) {
            Class.forName(user); // @site(unresolved, loading)
        }
        fromProperty("envprops.factory");
        fromProperty("envprops.handler");
        security();
        privileged();
        Setter.configure();
    }

    // An anonymous privileged action reads envprops.action through the key it
    // captured (its val$key field): doPrivileged returns what its run returns, so
    // this site loads nothing while envprops.action is unset.
    private static void privileged() throws Exception {
        String n = viaAction("envprops.action");
        if (n != null) {
            Class.forName(n); // @site(unresolved, loading)
        }
    }

    private static String viaAction(final String key) {
        return AccessController.doPrivileged(new PrivilegedAction<String>() {
            @Override
            public String run() {
                return System.getProperty(key);
            }
        });
    }

    // Security properties: envprops.secure is in no java.security and nothing
    // sets it (unset: loads nothing); envprops.provider is in java.security
    // (TestUnsetProperties gives it envprops.Builtin there); Setter writes
    // envprops.secwritten (unknown).
    private static void security() throws Exception {
        String s = Security.getProperty("envprops.secure");
        if (s != null) {
            Class.forName(s); // @site(unresolved, loading)
        }
        String p = Security.getProperty("envprops.provider");
        if (p != null) {
            Class.forName(p); // @site(unresolved, loading)
        }
        String w = Security.getProperty("envprops.secwritten");
        if (w != null) {
            Class.forName(w); // @site(unresolved, loading)
        }
    }

    private static Object fromProperty(String key) throws Exception {
        String n = System.getProperty(key);
        return n == null ? null : Class.forName(n); // @site(unresolved, loading)
    }
}

// @!evidence(envprops.Main.main, is unset in the analysed environment)

class Setter {
    static void configure() {
        System.setProperty("envprops.late", "envprops.Plugin");
        Security.setProperty("envprops.secwritten", "envprops.Plugin");
    }
}

class Plugin {
    Plugin() {
        System.out.println("plugin");
    }
}

class Builtin {
    static {
        System.out.println("builtin");
    }
}
