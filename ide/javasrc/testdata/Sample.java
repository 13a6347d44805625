/*
 * Everything the scanner must recognise in one file: member, local and anonymous
 * classes, enums with constant bodies, records (compact constructors), generic
 * methods, overloads, varargs, lambdas (expression and block, nested), method
 * references, switch rules (not lambdas), text blocks, annotations and a
 * non-BMP identifier in a string (UTF-16 columns).
 */
package p.q;

import java.util.*;
import java.util.function.*;

@SuppressWarnings("unused")
public class Sample<T extends Comparable<T>> {
    private static final String NAME = String.valueOf("x");
    private int a = compute(1), b;
    static { init("s"); }
    { init("i"); }

    Sample() { this(1); }
    Sample(int x) { super(); }

    <U> U pick(Map.Entry<String, List<U>>[] entries, final @Deprecated int... more) { return null; }
    void over(String s) { over(s, 1); }
    void over(String s, int n) {}
    static int compute(int n) { return n; }
    static void init(String s) {}

    class Inner { void m() { compute(2); } }
    static class Nested { Nested(String s) {} }

    void lambdas(List<String> xs) {
        xs.forEach(x -> System.out.println(x));
        Runnable r = () -> {
            Supplier<String> s = () -> String.valueOf(1);
            s.get();
        };
        xs.stream().map(String::length).forEach(System.out::println);
        int k = switch (xs.size()) { case 0 -> compute(0); default -> { yield compute(1); } };
        String tb = """
            text "block" ->
            """;
        String emoji = "😀"; over(emoji);
    }

    Object anon() {
        class Local implements Runnable { public void run() { compute(3); } }
        new Local().run();
        return new Nested("y") {
            @Override public String toString() { return "anon" + compute(4); }
        };
    }

    enum Color {
        RED(1), GREEN(2) { @Override int v() { return 7; } }, BLUE;
        Color() { this(0); }
        Color(int x) {}
        int v() { return 0; }
    }

    record Point(int x, int y) {
        Point { if (x < 0) throw new IllegalArgumentException(); }
        static Point origin() { return new Point(0, 0); }
    }

    interface Shape { double area(); default String name() { return "shape"; } int SIDES = compute(5); }
    @interface Tag { String value() default "v"; String[] more() default {"a", "b"}; }
}
