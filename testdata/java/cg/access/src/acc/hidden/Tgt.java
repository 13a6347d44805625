/*
 * Non-public methods that acc.Main calls through Method objects and a method handle
 * after overriding access (secret, other, quiet), and one it calls without (hush).
 */
package acc.hidden;

public class Tgt {
    public static Tgt make() {
        return new Tgt();
    }

    private void secret() { // @reachable
    }

    void other() { // @reachable
    }

    private void quiet() { // @reachable
    }

    private void hush() { // @reachable[level=2] through the overridden Method.invoke sites
    }
}
