package app;

// Plugin becomes serializable, with a readObject hook and a static initialiser:
// deserialization, which the JDK's code reaches, may create it (ObjectStreamClass's
// reflective sites initialise it) and calls the hook. Its sets of targets are
// computed from every serializable class, so an update (analysis.TestUpdateSerializable)
// computes them again: the new graph reaches Plugin.readObject, and the update back
// to the base program drops it.
public class Plugin implements java.io.Serializable {
    static Object made = new Object();

    Plugin() {}

    private void readObject(java.io.ObjectInputStream in) {}
}
