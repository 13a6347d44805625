/* A class whose methods the reflective sites of Main call by name. */
package vflow;

public class Widget {
    public int count; // read by name (Main.fieldOf)

    static {
        System.out.println("Widget");
    }

    public Widget() {
    }

    public void start() {
    }

    public void stop() {
    }

    public void resize(int n) {
    }

    public void resize(String n) {
    }

    void hidden() {
    }

    private void secret() {
    }
}
