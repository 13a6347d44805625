/* Nothing creates a Bye at Correct-String; Correct-Cast reaches its constructor. */
package reach;

class Bye implements Greeter {
    Bye() {
    }

    public void greet() {
    }
}
