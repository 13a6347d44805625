package app;

// Adds a default method to an interface: lambdas inherit interfaces' default
// methods, and the lambda sets are not matched again, so the update declines.
public interface Greeter {
    default void greet() {}

    default void wave() {}
}
