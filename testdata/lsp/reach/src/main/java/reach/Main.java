/*
 * The program of server/features_test.go: Go to Implementations, type hierarchies,
 * unreachable code and code lenses through JSON-RPC, at Correct-String with TFA and
 * the whole JDK. A greeter is created with `new` or, by Loader.make, through
 * reflection of a constant name cast to Greeter:
 *   - TFA: g.greet() may run Hello's greet only (both ways create a Hello);
 *   - Correct-String resolves make's forName to Hello, so nothing creates a Bye:
 *     Bye's constructor is unreachable, and Correct-Cast (the cast to Greeter for
 *     the set of classes make may create) reaches it;
 *   - below Correct-JDK native code may call every public method (the NativeMethod
 *     node): every greet is reachable, Bye's and Silent's through it alone.
 * The test finds positions by the text around them: keep those constructs unique.
 */
package reach;

public final class Main {
    public static void main(String[] args) throws Exception {
        Greeter g = args.length > 0 ? new Hello() : Loader.make();
        g.greet();
    }
}
