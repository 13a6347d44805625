package app;

// Creator.create creates a method reference to Lib.common too (see variant mref):
// while either creator is reachable, Lib.common is a lambda target of Main.main's
// Runnable.run dispatch; when both stop, it is not.
public class Creator {
    static void create() {
        Main.hold = () -> Creator.create();
        Runnable ref = Lib::common;
    }
}
