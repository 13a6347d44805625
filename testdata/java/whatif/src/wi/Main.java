/*
 * The application of the what-if test (analysis/whatif_test.go): Main reaches the
 * JDK's fallback in jfake.Registry.boot, Own falls back in its own code.
 */
package wi;

public class Main {
    public static void main(String[] args) throws Exception {
        jfake.Registry.boot(args);
    }
}
