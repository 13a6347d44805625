package nmade;

public interface Shape {
    String name();

    // Object.clone is native: below Correct-JDK what it returns is anything native
    // code may have made.
    Object copy() throws CloneNotSupportedException;
}
