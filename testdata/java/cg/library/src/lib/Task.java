/*
 * The library's callback interface and its implementations.
 */
package lib;

public interface Task {
    void exec();
}

class PkgTask implements Task {
    PkgTask() {
    }

    public void exec() {
    }
}

// A public method of an abstract class is an entry point too.
abstract class Shape {
    public abstract double area();

    public double scaled(double k) { // @reachable
        return k * area(); // @calls(lib.Square.area)
    }
}

class Square extends Shape {
    public Square() {
    }

    public double area() {
        return 1;
    }
}
