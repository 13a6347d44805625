package app;

// Other gains a public greet() but does not implement Greeter. In library mode a
// client class may declare "class D extends Other implements Greeter" and hand a D
// to Lib.greetAll: g.greet() then selects Other.greet, which D inherits (colluding
// inheritance). So the new run has an edge Lib.greetAll -> Other.greet, though
// neither Lib nor Greeter changed, and Lib's code does not name Other. Outside
// library mode nothing calls Other.greet.
public class Other {
    public Other() {}

    public void greet() {
        Lib.onlyFromWork();
    }
}
