/*
 * Records. javac generates the canonical constructor and the accessors that are not
 * declared, and implements toString, equals and hashCode with an invokedynamic whose
 * bootstrap is java.lang.runtime.ObjectMethods.bootstrap; its static arguments are
 * the record class, the component names and one getter method handle per component
 * (REF_getField: the generated methods read the fields, they do not call the
 * accessors, even declared ones). The generated members are all on the line of the
 * record header.
 *
 * What the generated methods call at run time: toString formats each component with
 * String.valueOf, equals compares reference components with Objects.equals and
 * hashCode hashes them with Objects.hashCode, so a component of a class type has its
 * toString, equals and hashCode called (Person's Name component).
 */
package recs;

public class Main {
    public static void main(String[] args) {
        Point p = new Point(1, 2); // @callees(recs.Point.<init>)
        int s = p.x() + p.y(); // @callees(recs.Point.x, recs.Point.y)
        String text = p.toString(); // @callees(recs.Point.toString)
        boolean same = p.equals(new Point(1, 2)); // @callees(recs.Point.equals, recs.Point.<init>)
        s += p.hashCode(); // @callees(recs.Point.hashCode)

        Person who = new Person(new Name("ada"), 36);
        text += who.toString(); // @callees(recs.Person.toString)
        same &= who.equals(who);
        s += who.hashCode();

        Range r = new Range(1, 2); // @callees(recs.Range.<init>)
        Shape sq = new Square(2.0);
        s += (int) sq.area(); // @callees(recs.Square.area)
        System.out.println(text + same + s + r);
    }
}

// x is declared, y is generated.
record Point(int x, int y) { // @calls(java.lang.runtime.ObjectMethods.bootstrap, java.lang.Record.<init>) @!calls(recs.Point.x, recs.Point.y)
    public int x() { // @reachable
        return x;
    }
}

record Person(Name name, int age) { // @calls(java.lang.runtime.ObjectMethods.bootstrap) @calls(recs.Name.toString, recs.Name.equals, recs.Name.hashCode) @!calls(recs.Person.name)
}

final class Name {
    private final String value;

    Name(String value) {
        this.value = value;
    }

    @Override
    public String toString() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Name n && n.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }
}

// A compact canonical constructor: its statements run before the fields are set.
record Range(int lo, int hi) {
    Range {
        check(lo, hi); // @callees(recs.Range.check)
    }

    private static void check(int lo, int hi) { // @reachable
        if (lo > hi) {
            throw new IllegalArgumentException(lo + " > " + hi);
        }
    }
}

interface Shape {
    double area();
}

record Square(double side) implements Shape {
    public double area() { // @reachable
        return side * side;
    }
}
