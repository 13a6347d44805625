package app;

public class Plugin {
    // Package-private: only Lib.load's resolved site reaches it, not the JDK's
    // unresolved ones (their fallback is public or accessible constructors).
    Plugin() {}
}
