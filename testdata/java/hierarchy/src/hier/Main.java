/*
 * Entry point of the "hierarchy" program: runs every case and checks on the
 * real JVM that each executed call reached the method its directive predicts
 * (see Trace.java). The expectations themselves are the RESOLVE/SELECT/NEST
 * comments in the other files; their grammar is in testdata/java/README.md.
 *
 *   Virtual.java         class inheritance, overriding, statics, super calls
 *   Defaults.java        default methods, maximally-specific interface methods,
 *                        diamonds, re-abstraction, class-wins, private vs default
 *   p1/, p2/             package-private overriding across packages, protected
 *   Privates.java        private class and interface methods
 *   ObjectMethods.java   Object methods via interfaces, bridges, invokeExact
 *   Nest.java            nest-mate private access between nested classes
 */
package hier;

public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Throwable {
        Virtual.run();
        Defaults.run();
        hier.p1.A.run();
        Privates.run();
        ObjectMethods.run();
        Nest.run();
        System.out.println("OK: " + Trace.checks() + " checks");
    }
}
