package mk;

// Marker test of the ide package (ide/marker_test.go). A marker is a comment
// "//@name(args)" that speaks of its own line; its first argument is text of that
// line (a token), the others what the feature must answer there. Call-hierarchy
// names are Class.method (JVM names, package mk only: the JDK's are left out).
//   @hover(tok, text...)       the hover at tok contains every text
//   @calls(tok, callee...)     outgoing calls of the method declared at tok: exactly these
//   @callers(tok, caller...)   incoming calls of the method declared at tok: exactly these
//   @diag(tok, text...)        a diagnostic on the line starts at tok and contains every text
//   @fix(tok, title...)        the quick fixes of that diagnostic include these titles
// Lines without @diag have no diagnostic.

interface Shape {
    double area();
}

class Circle implements Shape {
    public double area() { return 3.0; }
}

class Square implements Shape {
    public double area() { return 1.0; }
}

// Created by reflection only, from a constant name.
class Plugin {
    Plugin() { Main.helper(); }
}

public class Main {
    public static void main(String[] args) throws Exception { //@calls("main", "Circle.<init>", "Square.<init>", "Main.total", "Main.lambda$main$0", "Plugin.<init>", "Main.load")
        Shape s = args.length > 0 ? new Circle() : new Square();
        total(s); //@hover("total", "Main.total")
        Runnable r = () -> helper();
        r.run();
        Class<?> k = Class.forName("mk.Plugin"); //@hover("forName", "resolved", "mk.Plugin")
        k.getDeclaredConstructor().newInstance(); //@hover("newInstance", "Plugin")
        load(args[0]);
    }

    // The call s.area() may run either shape's area: CHA and RTA (both are created).
    static double total(Shape s) { //@calls("total", "Circle.area", "Square.area") @callers("total", "Main.main")
        return s.area(); //@hover("area", "Circle", "Square")
    }

    // Called from the lambda's body and from Plugin's constructor.
    static void helper() {} //@callers("helper", "Main.lambda$main$0", "Plugin.<init>")

    // A public method's parameter names the class: Correct-String cannot resolve it,
    // so both sites get a diagnostic and "Add specification" fixes: forName may load
    // any of the program's five classes (interfaces too), newInstance create any of
    // the four with a constructor.
    public static Object load(String name) throws Exception {
        return Class.forName(name).getDeclaredConstructor().newInstance(); //@diag("forName", "parameter") @diag("newInstance", "parameter") @fix("forName", "⇒ {Plugin}", "⇒ {Shape}", "all 5 candidates") @fix("newInstance", "⇒ {Plugin}", "all 4 candidates")
    }
}
