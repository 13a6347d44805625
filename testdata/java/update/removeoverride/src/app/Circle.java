package app;

// Removes draw, a CHA target of Lib.drawAll's s.draw(): the update computes the
// dispatch again for Lib.drawAll, which did not change; Circle.draw is gone, and
// Lib.drawAll -> Shape.draw stays.
public class Circle extends Shape {
}
