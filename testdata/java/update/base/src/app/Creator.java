package app;

public class Creator {
    // The lambda calls create again: once Work.run stops calling create, create and
    // the lambda's body support each other's reachability only in a cycle (the body
    // is a target of Main.main's hold.run() only while create, which creates the
    // lambda, is reachable), so a new run reaches neither.
    static void create() {
        Main.hold = () -> Creator.create();
    }
}
