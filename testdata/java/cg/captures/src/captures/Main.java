/*
 * A lambda's body gets the values its lambda captured first, in order (the captured
 * this of an instance body as parameter 0), then the arguments of the interface
 * method's call. So the calls that reach a body through the lambda object, the
 * JDK's included (Thread.run's target.run(), with whatever the JVM holds), hand
 * nothing to the captured parameters: under TFA, from level 2 on, x.describe() in
 * the body runs only A's describe, the class of the captured x, and y.describe()
 * only B's, although both are Shapes. At level 1 native code may call the private
 * bodies directly with anything; CHA and RTA reach both describes at each call.
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
        new Thread(r).start();
        new Main().instance(x, y);
        new Main().refs();
    }

    // An instance body captures this first: the captured shapes are parameters 1 and 2.
    void instance(Shape x, Shape y) {
        Runnable r = () -> {
            String s = y.describe() + this.hashCode(); // @calls(captures.Main$B.describe) @!calls[tfa,level>=2](captures.Main$A.describe)
            System.out.println(s + x.describe()); // @calls(captures.Main$A.describe) @!calls[tfa,level>=2](captures.Main$B.describe)
        };
        r.run();
    }

    // Method references to private methods: this::bound binds its receiver, this::tag
    // too, but Main::tag takes its receiver from the call (TestCapturedParams).
    private String bound() {
        return "b";
    }

    private String tag() {
        return "t";
    }

    void refs() {
        java.util.function.Supplier<String> b = this::bound;
        java.util.function.Supplier<String> t = this::tag;
        java.util.function.Function<Main, String> u = Main::tag;
        System.out.println(b.get() + t.get() + u.apply(this));
    }
}
