// Exceptions of the program: each is created in one place (Main.exceptions), Minor
// into a local that is never thrown, Major thrown and caught; and a serializable
// Parcel that only deserialization creates (Main.deserialized), and fills.
package tflow;

abstract class Fault extends RuntimeException {
    abstract String name();
}

class Minor extends Fault {
    String name() {
        return "minor";
    }
}

class Major extends Fault {
    String name() {
        return "major";
    }
}

class Parcel implements java.io.Serializable {
    private Fault content;

    Fault content() {
        return content;
    }

    void open() {
    }

    // The stream calls it on the Parcel it creates, with the content it wrote.
    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        open(); // @calls(tflow.Parcel.open)
        content.name(); // @calls(tflow.Minor.name, tflow.Major.name)
    }
}
