// The interface every call below dispatches on; each implementation is created in
// one place only (Main says where), so which implementations reach a value is what
// TFA's sets per value tell apart and XTA's sets per method do not. BigStar is
// never created.
package tflow;

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

class Octagon implements Shape {
    public String name() {
        return "octagon";
    }
}

class Star implements Shape {
    public String name() {
        return "star";
    }
}

class Moon implements Shape {
    public String name() {
        return "moon";
    }
}

class BigStar extends Star {
    public String name() {
        return "bigstar";
    }
}

class Comet implements Shape {
    public String name() {
        return "comet";
    }
}

class Planet implements Shape {
    public String name() {
        return "planet";
    }
}

class Bee implements Shape {
    public String name() {
        return "bee";
    }
}

class Sea implements Shape {
    public String name() {
        return "sea";
    }
}

// The paper's Fig. 1: an object with a field, and a method that returns it.
class Holder {
    Shape f;

    Shape m() {
        return this.f;
    }
}

// Called only from Main.lambdas: no JDK code calls it, so the lambda's body gets
// only what the program passes (Runnable.run, called all over the JDK, would pass
// the JDK's sets too).
interface Act {
    void act();
}

// An Act made with new (Main.lambdas), beside the lambda.
class Chore implements Act {
    public void act() {
    }
}

// Serializable, with the private hook deserialization calls (Main.streams).
class Kept implements java.io.Serializable {
    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
    }
}

// Created only by a constructor reference (Main.references).
class Nova implements Shape {
    public String name() {
        return "nova";
    }
}

// Called only from Main.references, as Act is from Main.lambdas.
interface Make {
    Shape make();
}
