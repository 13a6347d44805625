/*
 * Entry points of library mode: the methods a client may call. Package libworld is
 * open to clients (see Shape.java), so every non-private method of a class a client
 * can name is one; so are callbacks, the methods of objects the library hands to
 * clients that override a method of a type the client can name. Private methods and
 * the methods of classes a client cannot name (private member, local and anonymous
 * classes) that override nothing are reachable only through calls.
 */
package libworld;

public final class Api {
    public Api() { // @reachable
    }

    // Protected in a final class: no subclass, but a client in package libworld
    // can call it (JLS 6.6.2).
    protected void hook() { // @reachable
    }

    private void helper() { // @reachable[level=1] @!reachable[level>=2]
    }

    public Callback callback() { // @reachable
        // The lambda is handed to a client, which may call fire(): its body is
        // reachable although no library code calls Callback.fire.
        return () -> fired(); // @calls(libworld.Api.lambda$callback$0)
    }

    private void fired() { // @reachable
    }

    public Callback inner() { // @reachable
        return new Inner();
    }

    // A private member class: a client cannot name it, but it gets its objects as
    // Callbacks and calls fire(); extra() it cannot call, although it is
    // package-private in an open package. (Public methods are reachable at level 2
    // anyway: native code may call them.)
    private static class Inner implements Callback {
        public void fire() { // @reachable
        }

        void extra() { // @reachable[level=1] @!reachable[level>=2]
        }
    }
}

interface Callback {
    void fire();
}
