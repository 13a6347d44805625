/* No constructor of its own (javac's implicit one has no declaration to grey out). */
package reach;

class Silent implements Greeter {
    public void greet() {
    }
}
