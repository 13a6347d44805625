/*
 * Java 21-25 features whose calls the JVM or the JDK makes (compile with javac 25
 * --release 25, analyse with the JDK 25 image: analysis/modern_test.go):
 *
 * - virtual threads: Thread.startVirtualThread(task) and a virtual-thread-per-task
 *   executor run the task's run() on a virtual thread; in JDK 25 the virtual thread's
 *   continuation calls Thread.runWith(Object, Runnable), which calls task.run(): the
 *   method references body and pooled run from there.
 * - a pattern-matching switch over a sealed interface (SwitchBootstraps.typeSwitch
 *   picks the case; the case bodies' calls are ordinary calls in area);
 * - records (ObjectMethods supplies toString; their accessors are ordinary methods).
 */
package modern;

import java.util.concurrent.Executors;

public class Main {
    sealed interface Shape permits Circle, Square {
    }

    record Circle(double r) implements Shape {
    }

    record Square(double side) implements Shape {
    }

    static void body() {
        System.out.println("virtual");
    }

    static void pooled() {
        System.out.println("pooled");
    }

    static double area(Shape s) {
        return switch (s) {
            case Circle c -> c.r() * c.r();
            case Square q -> q.side() * q.side();
        };
    }

    public static void main(String[] args) throws Exception {
        Thread t = Thread.startVirtualThread(Main::body);
        t.join();
        try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
            ex.submit(Main::pooled);
        }
        Shape s = args.length > 0 ? new Circle(1) : new Square(2);
        System.out.println(area(s) + " " + s);
    }
}
