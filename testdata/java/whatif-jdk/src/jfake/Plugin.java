package jfake;

public class Plugin {
    // No code names this constructor: it runs as a public no-argument constructor of
    // a conservative set (Registry.boot's, or the application's own in wi.Own).
    public Plugin() throws ReflectiveOperationException {
        Late.load(toString());
    }
}

final class Late {
    private Late() {}

    // The name is Plugin's toString(), which nothing follows, so this site falls back
    // too. It is reached only through a fallback: without the JDK's fallbacks it is
    // unreachable from wi.Main (not listed), and reachable from wi.Own through the
    // application's own fallback, which the what-if keeps (listed).
    static Object load(String name) throws ReflectiveOperationException {
        return Class.forName(name).newInstance();
    }
}
