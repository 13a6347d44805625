/*
 * Library mode (Options.LibraryMode): there is no main method; every public and
 * protected method of the application's classes is an entry point, as any client
 * may call it. Package-private and private methods are reachable only through
 * calls.
 *
 * Under RTA a client can pass any Task it can create: PublicTask and OtherTask
 * (public constructors), not PkgTask (package-private constructor, and the factory
 * that creates it is never called).
 */
// @library
package lib;

public class Api {
    public Api() { // @reachable
    }

    public void run(Task t) { // @reachable
        t.exec(); // @calls(lib.PublicTask.exec, lib.OtherTask.exec) @calls[cha](lib.PkgTask.exec) @calls[level=1](lib.PkgTask.exec) @!calls[rta,level>=2](lib.PkgTask.exec)
        helper(); // @callees(lib.Api.helper)
    }

    protected void hook() { // @reachable
    }

    void packagePrivate() { // @reachable[level=1] @!reachable[level>=2]
    }

    private void helper() { // @reachable
    }

    private void unused() { // @reachable[level=1] @!reachable[level>=2]
    }

    public static Task make() { // @reachable
        return new PublicTask(); // @calls(lib.PublicTask.<init>)
    }

    static Task makeHidden() { // @!reachable[level>=2]
        return new PkgTask();
    }
}
