/*
 * An abstract class with an abstract method, an inherited concrete method, a final
 * method and a template method (describe) whose self-call dispatches on `this`.
 */
package virt;

abstract class Shape {
    abstract double area();

    String name() { // @reachable
        return "shape";
    }

    final String label() {
        return "[" + name() + "]"; // @calls(virt.Shape.name, virt.Square.name)
    }

    void describe() {
        // `this` has the declared type Shape: the same targets as s.area() in main.
        area(); // @calls(virt.Circle.area, virt.Square.area) @calls[cha](virt.Ghost.area) @!calls[rta,level>=2](virt.Ghost.area) @!calls(virt.Shape.area)
    }
}

class Circle extends Shape {
    Circle() {
    }

    @Override
    double area() { // @reachable
        return 3.14;
    }
}

class Square extends Shape {
    Square() {
    }

    @Override
    double area() { // @reachable
        return 1.0;
    }

    @Override
    String name() { // @reachable
        return "square";
    }
}

// Never instantiated: a CHA target of Shape.area, not an RTA target at level 2.
class Ghost extends Shape {
    Ghost() {
    }

    @Override
    double area() { // @reachable[cha] @reachable[level=1] @!reachable[rta,level>=2]
        return 0;
    }
}
