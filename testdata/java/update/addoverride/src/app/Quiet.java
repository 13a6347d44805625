package app;

// Overrides Greeter.greet: Lib.greetAll's g.greet(), in a class that did not change,
// now reaches Quiet.greet too, and through it Lib.viaLambda; no longer the default
// method, which every concrete Greeter overrides now.
public class Quiet implements Greeter {
    public void greet() {
        Lib.viaLambda();
    }
}
