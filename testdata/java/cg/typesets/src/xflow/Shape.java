// The interface every call below dispatches on; each implementation is created in
// one method only, so which implementations a method can see is what the type sets
// of XTA (per method and per field) tell apart and RTA (one set for the program)
// does not.
package xflow;

interface Shape {
    String name();
}

class Circle implements Shape {
    public String name() {
        return "circle";
    }
}

class Square implements Shape {
    public String name() {
        return "square";
    }
}

class Triangle implements Shape {
    public String name() {
        return "triangle";
    }
}

class Pentagon implements Shape {
    public String name() {
        return "pentagon";
    }
}

class Hexagon implements Shape {
    public String name() {
        return "hexagon";
    }
}

// Two fields of the same declared type, written with different shapes.
class Holder {
    Shape shape;
}

class Other {
    Shape shape;
}
