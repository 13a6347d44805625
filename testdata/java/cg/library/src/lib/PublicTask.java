/*
 * Public Task implementations: clients may create them.
 */
package lib;

public class PublicTask implements Task {
    public PublicTask() {
    }

    public void exec() { // @reachable
    }
}
