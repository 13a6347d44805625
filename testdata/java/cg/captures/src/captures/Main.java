/*
 * A lambda's captured values reach its body's parameters in order: LambdaMetafactory
 * passes them first, the receiver of an instance body (the captured this) as
 * parameter 0. And a lambda that never reaches code the sets do not follow (the
 * JDK's: none of these is handed to it) is not a target of the JDK's calls of
 * Runnable.run, which would hand its body what the JVM holds. So under TFA, from
 * level 2 on, x.describe() in the body runs only A's describe, the class of the
 * first captured value, and y.describe() only B's, the class of the second, although
 * both are Shapes. At level 1 native code may call the bodies with anything; CHA and
 * RTA reach both describes at each call.
 */
// @levels(1,6) @algos(cha,rta,tfa)
package captures;

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
        Runnable r = () -> {
            String s = x.describe(); // @calls(captures.Main$A.describe) @!calls[tfa,level>=2](captures.Main$B.describe)
            String t = y.describe(); // @calls(captures.Main$B.describe) @!calls[tfa,level>=2](captures.Main$A.describe)
            System.out.println(s + t);
        };
        r.run();
        new Main().instance(x, y);
    }

    // An instance body captures this first: the captured shapes are parameters 1 and 2.
    void instance(Shape x, Shape y) {
        Runnable r = () -> {
            String s = y.describe() + this.hashCode(); // @calls(captures.Main$B.describe) @!calls[tfa,level>=2](captures.Main$A.describe)
            System.out.println(s + x.describe()); // @calls(captures.Main$A.describe) @!calls[tfa,level>=2](captures.Main$B.describe)
        };
        r.run();
    }
}
