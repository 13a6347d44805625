/*
 * A second loadable Plugin ("flow.Other"), so that branches of the "flow"
 * program can load different classes and still run.
 */
package flow;

public class Other implements Plugin {
    @Override
    public String run(String arg) {
        return "other:" + arg;
    }
}
