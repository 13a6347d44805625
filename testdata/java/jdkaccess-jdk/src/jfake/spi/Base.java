package jfake.spi;

// A class of the fake JDK whose package-private method only the JDK's own
// reflection calls, as AbstractSelectableChannel.forEach is called from
// sun.nio.ch: hidden() is reachable only through the Method that
// jfake.ch.Channels opens with setAccessible(true).
public class Base {
    void hidden() {}

    // Package-private too, but no override opens it: no site of the fake JDK
    // calls it from Encap-Respect on.
    void other() {}

    public void open() {}
}
