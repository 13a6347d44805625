package rc;

// The entry point of the program of implementations, type hierarchies, unreachable
// code and code lenses (Hooks.java). Below Correct-JDK native code may call any
// public method (the NativeMethod node, a dynamic caller), main among them.
public class Main {
    public static void main(String[] args) throws Exception { //@lens("main", "entry point · 1 caller · 1 dynamic")
        Hooks.run();
    }
}
