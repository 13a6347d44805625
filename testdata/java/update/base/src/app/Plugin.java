package app;

public class Plugin {
    public Plugin() {}
}
