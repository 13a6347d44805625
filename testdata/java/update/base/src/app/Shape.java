package app;

// Lib.drawAll calls draw virtually: under CHA its targets are Shape.draw and every
// override in a subclass (Circle.draw; Triangle.draw in variant addclass).
public class Shape {
    public void draw() {}
}
