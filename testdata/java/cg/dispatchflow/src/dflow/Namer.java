// An interface a lambda implements: an invokeinterface is not followed into its
// implementations, since lambda classes are generated at run time.
package dflow;

public interface Namer {
    String name();
}
