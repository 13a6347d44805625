/*
 * Candidate classes for Shape.area (see Shape.java), each with a method area() of
 * Shape's descriptor, none of them implementing Shape. Each says why a client class
 * D extends C implements Shape can or cannot exist and inherit C's area().
 */
package libworld;

// Public, not final, public constructor: D extends Plain implements Shape inherits
// Plain.area.
class Plain {
    public Plain() {
    }

    public double area() {
        return 1;
    }
}

// A final method is inherited like any other: D cannot override it, and the call
// selects it.
class Pinned {
    public Pinned() {
    }

    public final double area() {
        return 2;
    }
}

// Package-private class and constructor: a client class in package libworld can
// extend it (the package is open).
class Hidden {
    Hidden() {
    }

    public double area() {
        return 3;
    }
}

// Final: no subclass at all.
final class Fixed {
    public double area() {
        return 5;
    }
}

// Only a private constructor and no nestmate subclass: a client cannot extend it.
class Singleton {
    static final Singleton INSTANCE = new Singleton();

    private Singleton() {
    }

    public double area() {
        return 6;
    }
}

// Private methods are not inherited (JLS 8.4.8) and selection skips them (JVMS
// 5.4.6): D would have to declare area() itself.
class Secret {
    public Secret() {
    }

    private double area() {
        return 7;
    }
}

// A package-private area() cannot implement Shape's public one: javac rejects D
// (JLS 8.4.8.3, weaker access), and invokeinterface throws IllegalAccessError
// when it selects a method that is not public.
class Pkg {
    public Pkg() {
    }

    double area() {
        return 8;
    }
}

// A static method is not an instance method: selection skips it (JVMS 5.4.6), and
// javac rejects D unless it declares area() (JLS 8.4.8.2: a static method inherited by
// D would hide Shape's instance method).
class Statics {
    public Statics() {
    }

    public static double area() {
        return 9;
    }
}

// Abstract: the JVM would throw AbstractMethodError, so D must override it.
abstract class Abs {
    public Abs() {
    }

    public abstract double area();
}

// Sealed (JLS 8.1.1.2): its permitted subclasses are all in the library, so no
// client class extends it; Sub, the permitted one, is final.
sealed class Sealed permits Sealed.Sub {
    public double area() {
        return 10;
    }

    static final class Sub extends Sealed {
        public double area() {
            return 11;
        }
    }
}

// Enum constructors are private (JLS 8.9.2), and a class cannot extend an enum
// (JLS 8.1.4).
enum Kind {
    ONE;

    public double area() {
        return 12;
    }
}

// A client class implementing Scaled (a subinterface of Shape that no library class
// implements) inherits its default method.
interface Scaled extends Shape {
    default double area() {
        return 13;
    }
}

// Unrelated to Shape: D implements Shape, Unrelated would inherit an abstract and a
// default method of the same signature from unrelated interfaces, which javac rejects
// (JLS 8.4.8.4) and HotSpot answers with IncompatibleClassChangeError.
interface Unrelated {
    default double area() {
        return 14;
    }
}
