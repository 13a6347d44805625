/*
 * A class whose only constructor is package-private, in another package than the
 * code that makes it: Encap-Respect's fallback for acc.Main's sites excludes it, an
 * access override on the Constructor that makes it brings it back.
 */
package acc.hidden;

class Made {
    Made() { // @reachable
    }
}
