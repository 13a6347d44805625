/* A plugin named by string concatenation and by a string shape. */
package res.plugins;

public class AlphaPlugin implements Runnable {
    static {
        System.out.println("alpha");
    }

    public void run() {
    }
}
