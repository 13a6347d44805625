package app;

public class Other {
    public Other() {}
}
