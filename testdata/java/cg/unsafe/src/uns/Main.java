/*
 * sun.misc.Unsafe.allocateInstance creates an object without running a constructor;
 * it initialises the class. With a class literal the site is resolved at every level:
 * the class is initialised and, under RTA, instantiated. Otherwise there are no
 * constructor edges, every <clinit> may run, and under RTA every class that the
 * level's reflective instantiation could create becomes instantiated (at
 * Encap-Respect: public constructors, and those accessible from Main).
 * ensureClassInitialized initialises a class: resolved for a literal.
 */
package uns;

import java.lang.reflect.Field;
import sun.misc.Unsafe;

public class Main {
    public static void main(String[] args) throws Exception {
        Field f = Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        Unsafe u = (Unsafe) f.get(null); // @site(unresolved, field)
        Object o = u.allocateInstance(Made.class); // @site(resolved, newInstance) @calls(uns.Made.<clinit>) @!calls(uns.Made.<init>, uns.NotMade.<clinit>)
        Object p = make(u, args.length > 0 ? Made.class : PkgMade.class);
        u.ensureClassInitialized(Init.class); // @site(resolved, loading) @calls(uns.Init.<clinit>) @!calls(uns.Made.<clinit>)
        String s = o.toString() + p.toString(); // @calls[rta](uns.Made.toString, uns.PkgMade.toString) @!calls[rta,level=2](uns.NotMade.toString)
        System.out.println(s);
    }

    static Object make(Unsafe u, Class<?> c) throws Exception {
        return u.allocateInstance(c); // @site(unresolved, newInstance) @calls(uns.NotMade.<clinit>, uns.Made.<clinit>) @!calls(uns.Made.<init>, uns.PkgMade.<init>)
    }
}

// Created only by the literal allocateInstance; its constructor is private.
class Made {
    static int n;

    static {
        n = 1;
    }

    private Made() {
    }

    public String toString() {
        return "made";
    }
}

// Created by the unresolved allocateInstance at Encap-Respect: its constructor is
// package-private, accessible from Main.
class PkgMade {
    PkgMade() {
    }

    public String toString() {
        return "pkg";
    }
}

// Never created: its constructor is private to it.
class NotMade {
    static int n;

    static {
        n = 2;
    }

    private NotMade() {
    }

    public String toString() {
        return "not made";
    }
}

class Init {
    static int n;

    static {
        n = 3;
    }
}
