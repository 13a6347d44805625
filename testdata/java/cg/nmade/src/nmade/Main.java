/*
 * Objects native code creates. Below Correct-JDK native code may create an object of
 * any class with a public constructor (NativeMethod's fallback), and Square is one:
 * RTA counts it as instantiated everywhere. It is made by code the program does not
 * contain, and reaches the program only as what native code returns or hands to
 * the methods it calls, never as the value of a new Circle, so TFA's local c holds
 * the Circle alone. What a native returns may be it (clone).
 */
// @levels(4) @algos(rta,tfa)
package nmade;

public class Main {
    public static void main(String[] args) throws Exception {
        Shape c = new Circle();
        c.name(); // @calls(nmade.Circle.name) @calls[rta](nmade.Square.name) @!calls[tfa](nmade.Square.name)
        Shape d = (Shape) c.copy();
        d.name(); // @calls(nmade.Circle.name, nmade.Square.name)
    }
}
