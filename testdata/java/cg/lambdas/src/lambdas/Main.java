/*
 * Lambdas and method references (invokedynamic with LambdaMetafactory). The
 * invokedynamic instruction creates the functional object; calling its interface
 * method runs the implementation method: the synthetic lambda$... method javac
 * generates for a lambda body, or the referenced method for a method reference
 * (String::length dispatches on its first argument, Fresh::new constructs, a bound
 * receiver::m dispatches on the receiver's type). So the line calling the interface
 * method has an edge to the implementation, and the lambda body's calls are edges
 * of the lambda$ method (written on the body's lines).
 *
 * A lambda exists only if its invokedynamic is reachable: the one in `unused` (a
 * private method nobody calls) is not a target at level 2, under CHA or RTA. A
 * lambda of another interface with the same method name and descriptor (Other) is
 * never a target of Op.apply.
 *
 * Invoking a method reference to a constructor or a static method initialises the
 * class (as new and invokestatic would): the call of the interface method may run
 * Fresh.<clinit> and Util.<clinit>.
 */
package lambdas;

import java.util.function.Function;
import java.util.function.Supplier;

public class Main {
    static int total;

    public static void main(String[] args) {
        Runnable r = () -> work(1); // @calls(lambdas.Main.work, java.lang.invoke.LambdaMetafactory.metafactory) @!calls(lambdas.Main.lambda$main$0)
        r.run(); // @calls(lambdas.Main.lambda$main$0) @!calls(lambdas.Main.work) @!calls[level>=2](lambdas.Main.lambda$unused$6)

        Op add = (a, b) -> a + b;
        Op mul = (a, b) -> {
            work(a); // @callees(lambdas.Main.work)
            return a * b;
        };
        add.apply(1, 2); // @callees(lambdas.Main.lambda$main$1, lambdas.Main.lambda$main$2) @!calls(lambdas.Main.lambda$main$3)
        Other other = (a, b) -> a - b;
        other.apply(3, 4); // @callees(lambdas.Main.lambda$main$3)
        // A default method called on a lambda: the lambda's class inherits it.
        add.applyTwice(1, 2); // @callees(lambdas.Op.applyTwice)
        total += mul.apply(2, 3) + other.apply(5, 6);

        // An unbound method reference dispatches on its first argument: String is
        // final, so its only target is String.length.
        Function<String, Integer> len = String::length;
        len.apply("abc"); // @calls(java.lang.String.length)
        // A bound reference dispatches on the receiver's type.
        Greeter g = args.length > 0 ? new Hello() : new Bye();
        Supplier<String> greet = g::greet;
        greet.get(); // @calls(lambdas.Hello.greet, lambdas.Bye.greet) @!calls(lambdas.Greeter.greet)
        // A constructor reference: the call constructs Fresh (and may initialise it).
        Supplier<Fresh> make = Fresh::new;
        make.get(); // @calls(lambdas.Fresh.<init>)
        // @edge(lambdas.Main.main, lambdas.Fresh.<clinit>) from make.get() (or, earlier, from the invokedynamic)
        // A static method reference: the call may initialise Util.
        Function<Integer, Integer> twice = Util::twice;
        twice.apply(4); // @calls(lambdas.Util.twice)
        // @edge(lambdas.Main.main, lambdas.Util.<clinit>) from twice.apply(4) (or from the invokedynamic)
        // A lambda of a generic interface is called through the erased method.
        Fn<String> bang = s -> s + "!";
        bang.apply("x"); // @calls(lambdas.Main.lambda$main$4)
        // Through a subinterface that redeclares the method with specific types:
        // javac asks altMetafactory for a bridge, so the erased call reaches it too.
        Str upper = s -> s.toUpperCase();
        Fn<String> asFn = upper;
        // The object made for Str has Str's methods: the call of Fn.apply(Object)
        // selects the bridge Str.apply(Object), a default method javac generates in
        // Str, and the bridge calls Str.apply(String), the lambda.
        asFn.apply("y"); // @calls(lambdas.Main.lambda$main$4, lambdas.Str.apply(Ljava/lang/Object;)Ljava/lang/Object;)
        // @edge(lambdas.Str.apply(Ljava/lang/Object;)Ljava/lang/Object;, lambdas.Main.lambda$main$5)
        upper.apply("z"); // @calls(lambdas.Main.lambda$main$5) @!calls(lambdas.Main.lambda$main$4)
        // An anonymous class is an ordinary class: dispatch finds its method.
        Runnable anon = new Runnable() {
            @Override
            public void run() {
                work(7); // @callees(lambdas.Main.work)
            }
        };
        anon.run(); // @calls(lambdas.Main$1.run, lambdas.Main.lambda$main$0)
        new Capturing(5).start(); // @callees(lambdas.Capturing.<init>, lambdas.Capturing.start)
    }

    static void work(int n) { // @reachable
        total += n;
    }

    private static void unused() { // @!reachable[level>=2]
        Runnable never = () -> work(0);
        never.run();
    }
}

@FunctionalInterface
interface Op {
    int apply(int a, int b);

    default int applyTwice(int a, int b) {
        return apply(apply(a, b), b); // @calls(lambdas.Main.lambda$main$1, lambdas.Main.lambda$main$2)
    }
}

@FunctionalInterface
interface Other {
    int apply(int a, int b);
}

interface Fn<T> {
    T apply(T t);
}

interface Str extends Fn<String> {
    @Override
    String apply(String s);
}

interface Greeter {
    String greet();
}

class Hello implements Greeter {
    Hello() {
    }

    public String greet() {
        return "hello";
    }
}

class Bye implements Greeter {
    Bye() {
    }

    public String greet() {
        return "bye";
    }
}

class Fresh {
    static int created = 0;

    static {
        created = -1;
    }

    Fresh() { // @reachable
        created++;
    }
}

class Util {
    static final Object LOCK = new Object();

    static Integer twice(Integer x) {
        return 2 * x;
    }
}

// A lambda capturing `this` calls an instance method: lambda$start$0 is an instance
// method of Capturing.
class Capturing {
    private final int n;

    Capturing(int n) {
        this.n = n;
    }

    void start() {
        Runnable r = () -> step(n);
        r.run(); // @calls(lambdas.Capturing.lambda$start$0)
    }

    private void step(int k) { // @reachable
    }
}
