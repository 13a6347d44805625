/*
 * A public class with a private constructor, made through the array that
 * getDeclaredConstructors returns and the static AccessibleObject.setAccessible.
 */
package acc.hidden;

public class Arr {
    private Arr() { // @reachable
    }
}
