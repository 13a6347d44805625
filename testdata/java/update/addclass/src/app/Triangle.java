package app;

// A new subclass of Shape: Lib.drawAll's s.draw() now reaches Triangle.draw, and
// through it Lib.onlyFromWork.
public class Triangle extends Shape {
    public void draw() {
        Lib.onlyFromWork();
    }
}
