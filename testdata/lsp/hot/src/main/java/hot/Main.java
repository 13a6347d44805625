package hot;

// The hot-method workspace of the call-hierarchy tests and benchmarks: next to the
// JDK (always analysed, where String.valueOf and toString have thousands of callers)
// a few methods of each shape the call hierarchy caps or lists in full.
//  - show calls String.valueOf(Object), a JDK method with thousands of callers;
//  - Main.toString overrides Object.toString, so every virtual toString call of the
//    JDK may reach it: thousands of callers;
//  - describe makes a megamorphic call (Object.toString: thousands of targets);
//  - helper has two call sites in one caller: a small answer, listed in full.
public class Main {
    public static void main(String[] args) {
        Object o = args.length > 0 ? args[0] : new Main();
        System.out.println(describe(o) + show(o) + twice(args.length));
    }

    static String describe(Object o) {
        return o.toString();
    }

    static String show(Object o) {
        return String.valueOf(o);
    }

    static int twice(int x) {
        return helper(x) + helper(x + 1);
    }

    static int helper(int x) {
        return x * 2;
    }

    @Override
    public String toString() {
        return "Main";
    }
}
