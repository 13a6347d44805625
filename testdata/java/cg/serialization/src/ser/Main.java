/*
 * Serialization. Deserialization may create an object of any serializable class (the
 * stream is input): it initialises the class, runs the no-argument constructor of its
 * first non-serializable superclass (an Externalizable class's public no-argument
 * constructor, a record's canonical constructor) and calls the private readObject and
 * readObjectNoData hooks of the serializable classes in its chain, readResolve,
 * readExternal and validateObject. Enum constants are looked up: no hooks.
 * Serialization calls the private writeObject hooks, writeReplace and writeExternal
 * of the serializable objects the algorithm says exist. The edges are the same at
 * every level: serialization is not a reflective feature of the levels.
 */
package ser;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectInputValidation;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.Serializable;

public class Main {
    public static void main(String[] args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ObjectOutputStream out = new ObjectOutputStream(bytes);
        out.writeObject(new Data()); // @calls(ser.Data.writeObject, ser.Data.writeReplace, ser.Ext.writeExternal, ser.Child.writeObject) @!calls(ser.Data.readObject, ser.Data.readResolve)
        out.flush();
        ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        Object o = in.readObject(); // @calls(ser.Data.readObject, ser.Data.readResolve, ser.Child.readObjectNoData, ser.Base.<init>, ser.Ext.<init>, ser.Ext.readExternal, ser.Point.<init>, ser.Checked.validateObject, ser.Data.<clinit>, ser.Color.<clinit>) @!calls(ser.Data.writeObject, ser.Color.readResolve, ser.Data.<init>, ser.Child.<init>, ser.Point.<init>(I)V, ser.Base.<init>(I)V)
        // Child inherits nothing private: Data's private readResolve is Data's only, and
        // Child's first non-serializable superclass is Base.
        System.out.println(o);
    }
}

class Data implements Serializable {
    static int loaded;

    static {
        loaded = 1;
    }

    Data() {
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject(); // @calls(ser.Data.readObject, ser.Checked.validateObject) nested objects are deserialized too
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject(); // @calls(ser.Data.writeObject)
    }

    private Object readResolve() {
        return this;
    }

    Object writeReplace() {
        return this;
    }
}

class Base {
    public Base() {
    }

    public Base(int n) {
    }
}

class Child extends Base implements Serializable {
    Child() {
    }

    private void readObjectNoData() {
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
    }
}

class Ext implements Externalizable {
    public Ext() {
    }

    public void readExternal(ObjectInput in) {
    }

    public void writeExternal(ObjectOutput out) {
    }
}

record Point(int x, int y) implements Serializable {
    Point(int x) {
        this(x, x);
    }
}

enum Color {
    RED, GREEN;

    private Object readResolve() {
        return this;
    }
}

class Checked implements Serializable, ObjectInputValidation {
    Checked() {
    }

    public void validateObject() {
    }
}
