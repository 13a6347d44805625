package locals;

import jfake.Privileged;

// Calls each of jfake.Privileged's methods (indexed as the JDK's code); B is
// created here only, and handed to the one whose action is a parameter.
public class Main {
    public static void main(String[] args) {
        Privileged.created();
        Privileged.factory();
        Privileged.lambda();
        Privileged.either(args.length > 0);
        Privileged.given(new Privileged.B());
    }
}
