package app;

// Lib.greetAll calls greet on a Greeter: its CHA targets are the default method and
// every implementation that overrides it (Polite.greet; Quiet.greet in variant
// addoverride).
public interface Greeter {
    default void greet() {}
}
