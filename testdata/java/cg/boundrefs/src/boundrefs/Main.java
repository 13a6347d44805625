/*
 * A bound method reference (x::describe) captures its receiver where it is made, as
 * the first value of its invokedynamic: under TFA the calls of its functional method
 * dispatch on that value's classes (A's describe), not on every Shape created (B is
 * one too). An unbound one (Shape::describe) dispatches on the argument its caller
 * passes: every created Shape's describe. CHA and RTA reach both describes at both
 * calls.
 */
// @levels(1,6) @algos(cha,rta,tfa)
package boundrefs;

import java.util.function.Function;
import java.util.function.Supplier;

public class Main {
    interface Shape {
        String describe();
    }

    static class A implements Shape {
        public String describe() {
            return "a";
        }
    }

    static class B implements Shape {
        public String describe() {
            return "b";
        }
    }

    public static void main(String[] args) {
        Shape x = new A();
        Shape y = new B();
        Supplier<String> bound = x::describe;
        bound.get(); // @calls(boundrefs.Main$A.describe) @!calls[tfa](boundrefs.Main$B.describe) @calls[cha](boundrefs.Main$B.describe) @calls[rta](boundrefs.Main$B.describe)
        Function<Shape, String> unbound = Shape::describe;
        unbound.apply(y); // @calls(boundrefs.Main$A.describe, boundrefs.Main$B.describe)
    }
}
