/* A Shape created by reflection; its initialiser shows loading edges. */
package res;

public class Circle implements Shape {
    static int made;

    static {
        made = 0;
    }

    public Circle() {
        made++;
    }

    public double area() {
        return 3.14;
    }

    public String name() {
        return "circle";
    }
}
