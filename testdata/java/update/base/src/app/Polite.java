package app;

public class Polite implements Greeter {
    public void greet() {}
}
