/* Created by main with new, and by Loader.make through reflection. */
package reach;

class Hello implements Greeter {
    Hello() {
    }

    public void greet() {
    }
}
