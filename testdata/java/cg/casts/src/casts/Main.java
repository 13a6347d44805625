/*
 * Casts and types: what the declared type of the receiver at a call site is after a
 * cast, an instanceof test, a generic erasure or on an array.
 *
 * - A cast narrows the receiver's declared type: ((Dog) a).speak() dispatches on
 *   Dog's subtypes only (javac names Dog in the invokevirtual).
 * - A call through a generic interface is compiled to the erased method
 *   (compareTo(Object), get()Object); the JVM selects the bridge method javac
 *   generated in the implementing class, and the bridge calls the real method.
 * - Methods called on arrays (clone, toString, hashCode) are Object's: an array
 *   has no other methods, so no override of a class can be selected (JLS 10.7).
 */
package casts;

import java.util.ArrayList;

public class Main {
    public static void main(String[] args) {
        Animal a = args.length > 0 ? new Dog() : new Cat();
        a.speak(); // @callees(casts.Dog.speak, casts.Cat.speak, casts.Puppy.speak)
        ((Dog) a).speak(); // @callees(casts.Dog.speak, casts.Puppy.speak) @!calls(casts.Cat.speak)
        if (a instanceof Cat) {
            Cat c = (Cat) a;
            c.speak(); // @callees(casts.Cat.speak)
        }
        if (a instanceof Dog d) {
            d.fetch(); // @callees(casts.Dog.fetch)
        }
        Object o = a;
        ((Animal) o).speak(); // @callees(casts.Dog.speak, casts.Cat.speak, casts.Puppy.speak)
        new Puppy();

        // Generic interface: the erased call selects the bridge, which calls the
        // method with the specific signature.
        Comparable<Version> v = new Version(1);
        v.compareTo(new Version(2)); // @calls(casts.Version.compareTo(Ljava/lang/Object;)I) @!calls(casts.Version.compareTo(Lcasts/Version;)I)
        // @edge(casts.Version.compareTo(Ljava/lang/Object;)I, casts.Version.compareTo(Lcasts/Version;)I)
        new Version(3).compareTo(new Version(4)); // @calls(casts.Version.compareTo(Lcasts/Version;)I) @!calls(casts.Version.compareTo(Ljava/lang/Object;)I)

        // Covariant return: Box.get()Object is overridden by the bridge in TextBox.
        Box<String> b = args.length > 1 ? new Box<>("x") : new TextBox("y");
        b.get(); // @callees(casts.Box.get, casts.TextBox.get()Ljava/lang/Object;)
        // @edge(casts.TextBox.get()Ljava/lang/Object;, casts.TextBox.get()Ljava/lang/String;)

        // Arrays: their methods are Object's, and no class's override can be selected.
        // For clone javac names the array type ("[I".clone), so the bytecode says the
        // receiver is an array; the only target is Object.clone (native).
        int[] xs = {1, 2, 3};
        int[] ys = xs.clone(); // @calls(java.lang.Object.clone) @!calls(java.util.ArrayList.clone, casts.Dog.clone)
        // For toString and hashCode javac names java/lang/Object, so the bytecode does
        // not say the receiver is an array: CHA dispatches on every class.
        Animal[] zoo = {a};
        zoo.toString(); // @calls(java.lang.Object.toString, casts.Dog.toString)
        ys.hashCode(); // @calls(java.lang.Object.hashCode, casts.Dog.hashCode)

        // A cast to an interface: dispatch on the interface's implementations.
        Object w = new Walker();
        ((Mover) w).move(); // @callees(casts.Walker.move)
        new ArrayList<String>().add("x");
    }
}

abstract class Animal {
    abstract String speak();
}

class Dog extends Animal {
    Dog() {
    }

    String speak() {
        return "woof";
    }

    void fetch() {
    }

    @Override
    protected Object clone() {
        return new Dog();
    }

    @Override
    public String toString() {
        return "dog";
    }

    @Override
    public int hashCode() {
        return 1;
    }
}

class Puppy extends Dog {
    Puppy() {
    }

    String speak() {
        return "yip";
    }
}

class Cat extends Animal {
    Cat() {
    }

    String speak() {
        return "meow";
    }
}

final class Version implements Comparable<Version> {
    private final int n;

    Version(int n) {
        this.n = n;
    }

    @Override
    public int compareTo(Version o) {
        return Integer.compare(n, o.n);
    }
}

class Box<T> {
    private final T value;

    Box(T value) {
        this.value = value;
    }

    T get() {
        return value;
    }
}

class TextBox extends Box<String> {
    TextBox(String s) {
        super(s);
    }

    @Override
    String get() {
        return "text";
    }
}

interface Mover {
    void move();
}

class Walker implements Mover {
    Walker() {
    }

    public void move() {
    }
}
