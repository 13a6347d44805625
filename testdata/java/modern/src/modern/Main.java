/*
 * Java 21-25 features whose calls the JVM or the JDK makes (compile with javac 25
 * --release 25, analyse with the JDK 25 image: analysis/modern_test.go):
 *
 * - virtual threads: Thread.startVirtualThread(task), Thread.ofVirtual().start(task)
 *   and a virtual-thread-per-task executor run the task's run() on a virtual thread;
 *   in JDK 25 the virtual thread's continuation calls Thread.runWith(Object,
 *   Runnable), which calls task.run(): the method references body, built and pooled
 *   run from there.
 * - a pattern-matching switch over a sealed interface (SwitchBootstraps.typeSwitch
 *   picks the case; the case bodies' calls are ordinary calls in area);
 * - records (ObjectMethods supplies toString; their accessors are ordinary methods);
 * - a Foreign Function & Memory upcall: Linker.upcallStub makes a function pointer
 *   that calls its method handle (compare) whenever native code calls it; here the C
 *   library's qsort does, through a downcall handle. jcg-lsp takes upcallStub's
 *   site for those calls: an edge from sortNative to compare.
 */
package modern;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
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

    static void built() {
        System.out.println("built");
    }

    static double area(Shape s) {
        return switch (s) {
            case Circle c -> c.r() * c.r();
            case Square q -> q.side() * q.side();
        };
    }

    static int compare(MemorySegment a, MemorySegment b) {
        return Integer.compare(a.get(JAVA_INT, 0), b.get(JAVA_INT, 0));
    }

    static int[] sortNative(int... values) throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle qsort = linker.downcallHandle(linker.defaultLookup().find("qsort").orElseThrow(),
                FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
        MethodHandle cmp = MethodHandles.lookup().findStatic(Main.class, "compare",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
        FunctionDescriptor cmpType = FunctionDescriptor.of(JAVA_INT,
                ADDRESS.withTargetLayout(JAVA_INT), ADDRESS.withTargetLayout(JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fn = linker.upcallStub(cmp, cmpType, arena);
            MemorySegment array = arena.allocateFrom(JAVA_INT, values);
            qsort.invokeExact(array, (long) values.length, JAVA_INT.byteSize(), fn);
            return array.toArray(JAVA_INT);
        }
    }

    public static void main(String[] args) throws Throwable {
        Thread t = Thread.startVirtualThread(Main::body);
        t.join();
        Thread.ofVirtual().name("built").start(Main::built).join();
        try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
            ex.submit(Main::pooled);
        }
        Shape s = args.length > 0 ? new Circle(1) : new Square(2);
        System.out.println(area(s) + " " + s);
        System.out.println(java.util.Arrays.toString(sortNative(3, 1, 2)));
    }
}
