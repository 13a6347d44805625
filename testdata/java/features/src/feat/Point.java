/*
 * A record with a compact canonical constructor (validation code that javac
 * inlines into the canonical <init>(II)V before the implicit field assignments),
 * an explicitly declared accessor x() (replacing the generated one), an
 * implicitly generated accessor y(), a static factory, an instance method, and
 * the toString/hashCode/equals that javac implements with an invokedynamic to
 * java.lang.runtime.ObjectMethods.bootstrap. The class extends java.lang.Record
 * and carries a Record attribute.
 */
package feat;

public record Point(int x, int y) {
    public Point {
        if (x < 0 || y < 0) {
            throw new IllegalArgumentException("negative coordinate");
        }
    }

    /** Explicit accessor: replaces the one javac would generate. */
    @Override
    public int x() {
        return x;
    }

    public static Point origin() {
        return new Point(0, 0);
    }

    public double norm() {
        return Math.sqrt((double) x * x + (double) y() * y());
    }
}
