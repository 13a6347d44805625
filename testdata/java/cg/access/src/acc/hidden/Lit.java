/*
 * A public class with a package-private constructor, named by a class literal in
 * acc.Main (so that Correct-Cast and above resolve its instantiation site).
 */
package acc.hidden;

public class Lit {
    Lit() { // @reachable
    }
}
