/*
 * Created by no library code, but its constructor is public: a client may create it.
 */
package lib;

public class OtherTask implements Task {
    public OtherTask() { // @reachable
    }

    public void exec() { // @reachable
    }
}
