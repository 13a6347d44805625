/*
 * Pattern matching for switch (JDK 21) over a sealed hierarchy of records,
 * compiled by javac 21+ to an invokedynamic of
 * java.lang.runtime.SwitchBootstraps.typeSwitch (the bootstrap arguments are
 * the case labels: record classes here) followed by a tableswitch on the index
 * it returns, plus record deconstruction through the accessor methods:
 *   - area:      exhaustive switch over the sealed interface without default
 *                (javac adds a default that throws MatchException);
 *   - describe:  record patterns, nested record patterns, guards (when), the
 *                unnamed pattern _ (JDK 22) and a null case;
 *   - classify:  a switch on Object mixing type patterns with String and
 *                Integer cases, and instanceof with a record pattern;
 *   - suits:     qualified enum constants as case labels in a pattern switch
 *                (SwitchBootstraps.typeSwitch whose label is an EnumDesc built
 *                by a dynamic constant, CONSTANT_Dynamic with the bootstrap
 *                ConstantBootstraps.invoke).
 */
package j25;

public final class Shapes {
    private Shapes() {
    }

    public sealed interface Shape permits Circle, Rect, Group {
    }

    public record Point(int x, int y) {
    }

    public record Circle(Point center, int radius) implements Shape {
    }

    public record Rect(Point topLeft, Point bottomRight) implements Shape {
    }

    public record Group(Shape first, Shape second) implements Shape {
    }

    public enum Suit {
        HEARTS, SPADES
    }

    static double area(Shape s) {
        return switch (s) {
            case Circle c -> Math.PI * c.radius() * c.radius();
            case Rect(Point(var x1, var y1), Point(int x2, int y2)) -> Math.abs((x2 - x1) * (y2 - y1));
            case Group(Shape a, Shape b) -> area(a) + area(b);
        };
    }

    static String describe(Shape s) {
        return switch (s) {
            case null -> "nothing";
            case Circle(Point(int x, int y), int r) when r > 10 -> "big circle at " + x + "," + y;
            case Circle(_, int r) -> "circle r=" + r;
            case Rect(Point p, _) when p.x() == 0 -> "rect on the y axis";
            case Rect r -> "rect " + r.topLeft();
            case Group(Circle _, Circle _) -> "two circles";
            case Group g -> "group of " + describe(g.first()) + " and " + describe(g.second());
        };
    }

    static String classify(Object o) {
        if (o instanceof Point(int x, int y) && x == y) {
            return "diagonal point";
        }
        return switch (o) {
            case Integer i when i > 100 -> "big int";
            case Integer i -> "int " + i;
            case String str -> "string " + str.length();
            case Shape sh -> "shape " + describe(sh);
            default -> "other " + o.getClass().getSimpleName();
        };
    }

    static String suits(Object o) {
        return switch (o) {
            case Suit.HEARTS -> "hearts";
            case Suit s -> "suit " + s.name();
            default -> "no suit";
        };
    }
}
