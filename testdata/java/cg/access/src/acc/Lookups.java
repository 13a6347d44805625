/*
 * Lookups with private access that a program gets by reflection on Lookup itself,
 * as libraries did before Java 9 (jOOR, Spring, the default-method idiom of
 * proxies), are access overrides (issue 30): a handle made from one may refer to a
 * non-public member of the Lookup's class, so the lookup site adds that class's
 * members (of any access) to the handles the program's unresolved invocations may
 * call. A Lookup that MethodHandles.lookup() made in another class has private
 * access to that class only: a handle made from it in Lookups reaches none of
 * acc.hidden.Shut's non-public methods.
 *
 * Each name given to a find* comes from main's parameters (the analysis cannot tell
 * it at any level), so every lookup site here is unresolved, and every invocation
 * falls back to what Lookups may access and to the handles of the reachable lookup
 * sites. Those of the override-free lookup sites add only what their class may
 * access; Main.handles's privateLookupIn adds Tgt's members.
 *
 * Run (Lookup's constructor and field are in java.base):
 *   java --add-opens java.base/java.lang.invoke=ALL-UNNAMED -cp <classes> acc.Lookups
 * prints greet, trust and OK.
 */
package acc;

import acc.hidden.Shut;
import acc.hidden.Spec;
import acc.hidden.Trust;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

// The lookup sites say which override made their Lookup:
// @evidence(acc.Lookups.construct, Constructor.newInstance of a Lookup)
// @evidence(acc.Lookups.trusted, Field.get of a Lookup)
// @!evidence(acc.Lookups.plain, may have reached this object)
public class Lookups {
    public static void main(String[] args) throws Throwable {
        String trust = args.length > 0 ? args[0] : "trust";
        String shut = args.length > 1 ? args[1] : "shut";
        construct(new Spec());
        trusted(new Trust(), trust);
        plain(new Shut(), shut);
        System.out.println("OK");
    }

    // The Java 8 idiom: Lookup's package-private constructor Lookup(Class), opened
    // by setAccessible, makes a Lookup with private access to Spec.
    // unreflectSpecial of Spec.greet (private; its Method meets no setAccessible) is
    // unresolved, since the analysis does not trace a Method into unreflect*: its
    // Lookup is the override (the newInstance cast to Lookup), so the site adds the
    // members of Spec, the specialCaller, and of its supertypes (greet among them) to
    // the handles; the invocation reaches greet through them. Without the override
    // the site adds only what Lookups may access, which greet is not.
    static void construct(Spec s) throws Throwable {
        Constructor<MethodHandles.Lookup> c = MethodHandles.Lookup.class.getDeclaredConstructor(Class.class);
        c.setAccessible(true);
        MethodHandles.Lookup l = c.newInstance(Spec.class);
        Method m = Spec.class.getDeclaredMethod("greet");
        MethodHandle mh = l.unreflectSpecial(m, Spec.class); // @site(unresolved, methodHandle)
        mh.invoke(s); // @calls(acc.hidden.Spec.greet)
    }

    // IMPL_LOOKUP, read through a Field that setAccessible opened, is the trusted
    // Lookup; in(Trust.class) derives from it a Lookup with private access to Trust
    // (a trusted Lookup's in keeps every access). Its findVirtual on Trust with a
    // name the analysis cannot tell adds Trust's members (and its supertypes' and
    // subclasses'): the invocation reaches Trust.trust, private in acc.hidden.
    // Without the override, the site adds what Lookups may access, not trust.
    static void trusted(Trust t, String name) throws Throwable {
        Field f = MethodHandles.Lookup.class.getDeclaredField("IMPL_LOOKUP");
        f.setAccessible(true);
        MethodHandles.Lookup impl = (MethodHandles.Lookup) f.get(null);
        MethodHandle mh = impl.in(Trust.class).findVirtual(Trust.class, name, MethodType.methodType(void.class)); // @site(unresolved, methodHandle)
        mh.invoke(t); // @calls(acc.hidden.Trust.trust)
    }

    // The negative: a Lookup that MethodHandles.lookup() made in acc.Other has
    // private access to Other, not to Shut. No override made it: Other.lookup's
    // result is none of the reflective calls above, and the Lookups that overrides
    // made in this program never leave their methods (kept in locals, given to
    // Lookup's own methods), so none of them may be the Lookup plain gets from
    // elsewhere (testdata/java/escapes has one that leaves). The site, whose class
    // is known and name is not, refers to the methods of Shut that Lookups may
    // access, and no lookup site of the program adds Shut's other members: the
    // invocation reaches neither Shut.shut (private) nor Shut.hidden
    // (package-private). The lookup fails at run time.
    static void plain(Shut s, String name) throws Throwable {
        try {
            MethodHandle mh = Other.lookup().findVirtual(Shut.class, name, MethodType.methodType(void.class)); // @site(resolved, methodHandle)
            mh.invoke(s); // @!calls(acc.hidden.Shut.shut, acc.hidden.Shut.hidden)
            throw new IllegalStateException("findVirtual found a private method of Shut");
        } catch (IllegalAccessException expected) {
            // Other's Lookup has no access to Shut.shut
        }
    }
}
