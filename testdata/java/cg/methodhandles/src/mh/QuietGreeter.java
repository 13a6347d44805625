/*
 * Overrides Greeter.greet but is never created: its constructor is private, so no
 * reflective or method-handle fallback of another class may create it at
 * Encap-Respect, and under RTA it is not a receiver.
 */
package mh;

class QuietGreeter extends Greeter {
    private QuietGreeter() {
    }

    String greet(String s) {
        return "";
    }
}
