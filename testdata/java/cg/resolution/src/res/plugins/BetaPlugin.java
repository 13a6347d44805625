/* A plugin named by string concatenation and by a string shape. */
package res.plugins;

public class BetaPlugin implements Runnable {
    static {
        System.out.println("beta");
    }

    public void run() {
    }
}
