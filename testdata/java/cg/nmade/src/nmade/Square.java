package nmade;

// Never created by the program: public, with a public constructor, so native code
// may create it below Correct-JDK.
public class Square implements Shape, Cloneable {
    public Square() {
    }

    public String name() {
        return "square";
    }

    public Object copy() throws CloneNotSupportedException {
        return clone();
    }
}
