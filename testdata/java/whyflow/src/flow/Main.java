package flow;

import java.util.ArrayList;
import java.util.List;

// why --method explains how a dispatch's receiver came to hold the class whose
// method it reaches (TestWhyFlow): the values it flowed through, back to its
// creation or to a value that holds any object.
public class Main {
    interface Shape { double area(); }
    static class Circle implements Shape { public double area() { return 3; } }
    static class Square implements Shape { public double area() { return 4; } }
    static class Triangle implements Shape { public double area() { return 5; } }

    static Shape kept;

    public static void main(String[] args) {
        kept = new Circle();                 // line 18: the Circle kept reaches draw through the field
        Shape[] shapes = { new Square() };   // line 19: the Square reaches drawFirst through the array
        draw(kept);                          // line 20
        drawFirst(shapes);                   // line 21
        if (args.length > 1) {
            escaping();                      // line 23 (needs the JDK: ArrayList)
        }
    }

    static double draw(Shape s) {
        return s.area();                     // line 28: Circle.area only
    }

    static double drawFirst(Shape[] ss) {
        return ss[0].area();                 // line 32: Square.area only
    }

    static double escaping() {
        List<Shape> l = new ArrayList<>();
        l.add(new Triangle());
        System.identityHashCode(l);          // line 38: native code gets the list, which may store anything in it
        return l.get(0).area();              // line 39: any Shape the program creates, Triangle among them
    }
}
