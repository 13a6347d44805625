package access;

import jfake.ch.Channels;
import jfake.ch.Invoker;
import jfake.spi.Base;

// Calls the fake JDK's reflective code (jdkaccess-jdk): Channels' sites call the
// package-private Base.hidden through Methods the JDK's code opened itself;
// Invoker's site is given a public method.
public class Main {
    public static void main(String[] args) throws Exception {
        Base b = new Base();
        Channels.run(b);
        Invoker.call(Base.class.getMethod("open"), b);
    }
}
