/*
 * Native methods and the synthetic NativeMethod node (<native>), assumption-levels.md:
 * a call of a native method is a dynamic site (unresolved: native code may call
 * back), the native method has an edge to <native>, and <native> has edges to
 *
 * - level 1 (Behaved-CLs): every <clinit>, constructor and method;
 * - level 2 (Encap-Respect): every <clinit>, and only public constructors and
 *   public methods (native code is external code that respects access).
 *
 * Under RTA, native code's constructor calls instantiate: at level 2 a class with a
 * public constructor counts as instantiated even if the program never creates it
 * (PublicService), one without (HiddenService) does not.
 */
package natives;

public class Main {
    public static void main(String[] args) {
        long t = System.nanoTime(); // @calls(java.lang.System.nanoTime) @site(unresolved, native)
        if (t == 42) {
            work(); // @callees(natives.Main.work) @site(unresolved, native)
        }
        helper(); // @callees(natives.Main.helper) @!site
        Service s = lookup(args);
        // Neither service class is created by the program.
        s.serve(); // @calls(natives.PublicService.serve) @calls[cha](natives.HiddenService.serve) @calls[level=1](natives.HiddenService.serve) @!calls[rta,level>=2](natives.HiddenService.serve)
    }

    // @edge(natives.Main.work, <native>)
    static native void work();

    static void helper() {
    }

    static Service lookup(String[] args) {
        return null;
    }

    // Only native code could call these.
    static void hidden() { // @reachable[level=1] @!reachable[level>=2]
    }

    public static void exposed() { // @reachable
    }

    protected static void guarded() { // @reachable[level=1] @!reachable[level>=2]
    }

    // @edge(<native>, natives.Main.exposed) @edge[level=1](<native>, natives.Main.hidden, natives.Main.guarded)
    // @!edge[level>=2](<native>, natives.Main.hidden) @!edge[level>=2](<native>, natives.Main.guarded)
    // @edge(<native>, natives.PublicService.<init>) @edge(<native>, natives.Main.<clinit>)
    // @edge[level=1](<native>, natives.HiddenService.<init>) @!edge[level>=2](<native>, natives.HiddenService.<init>)
    static int seed = 1;
}

interface Service {
    void serve();
}

class PublicService implements Service {
    public PublicService() {
    }

    public void serve() {
    }
}

class HiddenService implements Service {
    HiddenService() {
    }

    public void serve() {
    }
}
