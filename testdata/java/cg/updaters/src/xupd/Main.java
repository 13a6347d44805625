/*
 * A private field written only through a field updater: the JDK's updater stores
 * the value with Unsafe, which no bytecode of this program shows. XTA lets values
 * given to Unsafe into the non-public fields of the program only once the program
 * hands out access to its fields by name (here AtomicReferenceFieldUpdater.newUpdater
 * in Main's initialiser); the call on the field's value must still reach the class
 * that was stored. (typesets has the other side: a program that hands out no such
 * access keeps its fields to what its bytecode writes.)
 */
// @levels(6) @algos(rta,xta)
package xupd;

import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

interface Named {
    String name();
}

class Heptagon implements Named {
    public String name() {
        return "heptagon";
    }
}

public class Main {
    private volatile Named named; // written only through NAMED

    private static final AtomicReferenceFieldUpdater<Main, Named> NAMED =
            AtomicReferenceFieldUpdater.newUpdater(Main.class, Named.class, "named");

    public static void main(String[] args) {
        Main m = new Main();
        store(m);
        m.use();
    }

    static void store(Main m) {
        NAMED.set(m, new Heptagon());
    }

    void use() {
        named.name(); // @calls(xupd.Heptagon.name)
    }
}
