/*
 * Entry point of the "java25" program, which needs javac 25 (--release 25):
 * it uses pattern matching for switch, record patterns, unnamed variables,
 * module imports, flexible constructor bodies, scoped values and stream
 * gatherers (see Shapes.java and Modern.java). CompactMain.java, in the unnamed
 * package, is a compact source file with an instance main method.
 */
package j25;

public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        Shapes.Shape c = new Shapes.Circle(new Shapes.Point(1, 2), 20);
        Shapes.Shape r = new Shapes.Rect(new Shapes.Point(0, 0), new Shapes.Point(2, 3));
        Shapes.Shape g = new Shapes.Group(c, new Shapes.Circle(new Shapes.Point(0, 0), 1));
        System.out.println(Shapes.area(r) + " " + Shapes.describe(c) + " / " + Shapes.describe(r) + " / "
                + Shapes.describe(g) + " / " + Shapes.describe(null));
        System.out.println(Shapes.classify(new Shapes.Point(4, 4)) + " / " + Shapes.classify(500) + " / "
                + Shapes.classify("abc") + " / " + Shapes.classify(g) + " / " + Shapes.classify(1.5));
        System.out.println(Shapes.suits(Shapes.Suit.HEARTS) + " / " + Shapes.suits(Shapes.Suit.SPADES) + " / " + Shapes.suits("x"));
        System.out.println(Modern.run());
        System.out.println("OK");
    }
}
