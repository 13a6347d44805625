/* A Shape that no string names: only a cast to Shape reaches it. */
package res;

class Hidden implements Shape {
    static {
        System.out.println("hidden loaded");
    }

    public Hidden() {
    }

    public double area() {
        return 0;
    }
}
