/*
 * A private method that acc.Lookups calls through unreflectSpecial on a Lookup made
 * by Lookup's own constructor (the Java 8 idiom).
 */
package acc.hidden;

public class Spec {
    private void greet() { // @reachable
        System.out.println("greet");
    }
}
