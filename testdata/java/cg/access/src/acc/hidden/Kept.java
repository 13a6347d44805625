/*
 * The negative: a public class with a package-private constructor whose Constructor
 * object never meets an access override. Nothing may call its constructor at levels
 * 2-6 (acc.Main's call fails with IllegalAccessException at run time).
 */
package acc.hidden;

public class Kept {
    Kept() { // @reachable through byName's site, which may make any class (not from literal's)
    }
}
