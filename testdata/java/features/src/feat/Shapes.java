/*
 * A sealed interface (PermittedSubclasses attribute) whose permitted subclasses
 * are a final class (Circle), a non-sealed class (Square) that an unrestricted
 * subclass (Square.Tile, declared here too) extends, and a sealed class (Poly)
 * with its own permitted final subclass and a record (Tri). area() is dispatched
 * through the interface (invokeinterface) to each implementation; describe()
 * distinguishes the cases with instanceof pattern matching (JDK 16+).
 */
package feat;

public final class Shapes {
    private Shapes() {
    }

    public sealed interface Shape permits Circle, Square, Poly {
        double area();
    }

    public static final class Circle implements Shape {
        private final double r;

        public Circle(double r) {
            this.r = r;
        }

        @Override
        public double area() {
            return Math.PI * r * r;
        }
    }

    public static non-sealed class Square implements Shape {
        final double side;

        public Square(double side) {
            this.side = side;
        }

        @Override
        public double area() {
            return side * side;
        }
    }

    /** Extends the non-sealed Square: allowed without being listed anywhere. */
    public static class Tile extends Square {
        public Tile() {
            super(1);
        }

        @Override
        public double area() {
            return 1;
        }
    }

    public abstract static sealed class Poly implements Shape permits Hexagon, Tri {
        abstract int corners();
    }

    public static final class Hexagon extends Poly {
        @Override
        int corners() {
            return 6;
        }

        @Override
        public double area() {
            return 2.598;
        }
    }

    public static final class Tri extends Poly {
        @Override
        int corners() {
            return 3;
        }

        @Override
        public double area() {
            return 0.433;
        }
    }

    static double area(Shape s) {
        return s.area();
    }

    static String describe(Shape s) {
        if (s instanceof Circle c) {
            return "circle " + c.r;
        } else if (s instanceof Square sq && sq.side > 1) {
            return "big square " + sq.area();
        } else if (s instanceof Poly p) {
            return "poly " + p.corners();
        }
        return "small " + new Tile().area();
    }
}
