/*
 * Library mode (Options.LibraryMode): there is no main method; every method a client
 * may call is an entry point. Package lib is not sealed and not in a named module,
 * so a client can declare a class in it and call package-private methods and
 * constructors too (JLS 6.6.1). Private methods are reachable only through calls.
 *
 * Under RTA a client can pass any Task it can create: PublicTask and OtherTask
 * (public constructors), and PkgTask too, whose package-private constructor a client
 * class in package lib can call.
 */
// @library
package lib;

public class Api {
    public Api() { // @reachable
    }

    public void run(Task t) { // @reachable
        t.exec(); // @calls(lib.PublicTask.exec, lib.OtherTask.exec, lib.PkgTask.exec)
        helper(); // @callees(lib.Api.helper)
    }

    protected void hook() { // @reachable
    }

    void packagePrivate() { // @reachable (a client class in package lib may call it)
    }

    private void helper() { // @reachable
    }

    private void unused() { // @reachable[level=1] @!reachable[level>=2]
    }

    public static Task make() { // @reachable
        return new PublicTask(); // @calls(lib.PublicTask.<init>)
    }

    static Task makeHidden() { // @reachable (package-private, as packagePrivate)
        return new PkgTask();
    }
}
