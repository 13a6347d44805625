package nmade;

// Created by Main only.
public class Circle implements Shape, Cloneable {
    public String name() {
        return "circle";
    }

    public Object copy() throws CloneNotSupportedException {
        return clone();
    }
}
