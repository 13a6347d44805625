/* A class no name in Main's positive cases denotes, but for halt() and ensure. */
package vflow;

public class Other {
    static {
        System.out.println("Other");
    }

    public Other() {
    }

    public void halt() {
    }
}
