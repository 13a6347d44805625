package app;

// Inherits Greeter.greet; variant addoverride overrides it.
public class Quiet implements Greeter {
}
