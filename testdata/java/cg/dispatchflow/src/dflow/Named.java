// A class implementing Namer next to a lambda.
package dflow;

public class Named implements Namer {
    @Override
    public String name() {
        return "dflow.Alpha";
    }
}
