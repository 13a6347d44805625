package app;

// Variant removeoverride removes draw.
public class Circle extends Shape {
    public void draw() {
        Lib.common();
    }
}
