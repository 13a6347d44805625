/*
 * TFA (Zhuo and Zhang, "A relational static semantics for call graph construction"):
 * a type set per value (a parameter, a call's result, a local's definition, a cast's
 * result), where XTA has one per method. Where each Shape is created:
 *   Circle and Square in locals (and a Circle in summarised), Triangle and
 *   Pentagon in main (the arguments of pair), Hexagon and Octagon in lambdas, Star
 *   and Moon in pick, Comet and Planet in fields, Bee and Sea in paper; the
 *   Faults Minor and Major in exceptions (and, as every serializable class, by
 *   deserialization, which alone creates Parcels); Nova by a constructor reference
 *   in references.
 * Every positive holds for every algorithm. Negatives are TFA's; the @calls[xta]
 * beside them say what XTA's coarser sets still allow, which is what the program
 * exists to show, and the @calls[tfa] where TFA is coarser than one could hope
 * (fields as in the paper's Fig. 1, values through the summarised JDK).
 */
// @levels(6) @algos(rta,xta,tfa)
package tflow;

public class Main {
    public static void main(String[] args) throws Exception {
        locals();
        pair(new Triangle(), new Pentagon());
        lambdas();
        casts();
        constants();
        fields();
        paper();
        streams(null);
        summarised();
        exceptions();
        deserialized(new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(new byte[0])));
        reflective();
        references();
    }

    // Two locals of one method: XTA's one set for the method holds both classes;
    // TFA's set of each local holds the class of its one definition.
    static void locals() {
        Shape a = new Circle();
        Shape b = new Square();
        a.name(); // @calls(tflow.Circle.name) @calls[xta](tflow.Square.name) @!calls[tfa](tflow.Square.name, tflow.Triangle.name, tflow.Pentagon.name, tflow.Hexagon.name, tflow.Octagon.name, tflow.Star.name, tflow.Moon.name)
        b.name(); // @calls(tflow.Square.name) @calls[xta](tflow.Circle.name) @!calls[tfa](tflow.Circle.name)
    }

    // Arguments reach parameters position by position: main passes a Triangle as x
    // and a Pentagon as y. XTA passes the caller's whole set to every parameter.
    static void pair(Shape x, Shape y) {
        x.name(); // @calls(tflow.Triangle.name) @calls[xta](tflow.Pentagon.name) @!calls[tfa](tflow.Pentagon.name, tflow.Circle.name, tflow.Square.name)
        y.name(); // @calls(tflow.Pentagon.name) @calls[xta](tflow.Triangle.name) @!calls[tfa](tflow.Triangle.name)
    }

    // A lambda's body sees what its creator captures (the Hexagon), not everything
    // the creator holds (the Octagon too, under XTA).
    static void lambdas() {
        Shape h = new Hexagon();
        Shape o = new Octagon();
        o.name(); // @calls(tflow.Octagon.name) @!calls[tfa](tflow.Hexagon.name)
        Act r = () -> h.name(); // @calls(tflow.Hexagon.name) @calls[xta](tflow.Octagon.name) @!calls[tfa](tflow.Octagon.name)
        // A lambda is a value too, made at its invokedynamic: r holds the lambda
        // above, idle the one below, named a Chore (an ordinary class). RTA and XTA
        // match every lambda of the interface by name, at every call of act.
        Act idle = () -> {};
        r.act(); // @calls(tflow.Main.lambda$lambdas$0) @calls[rta](tflow.Main.lambda$lambdas$1) @calls[xta](tflow.Main.lambda$lambdas$1) @!calls[tfa](tflow.Main.lambda$lambdas$1, tflow.Chore.act)
        idle.act(); // @calls(tflow.Main.lambda$lambdas$1) @!calls[tfa](tflow.Main.lambda$lambdas$0)
        Act named = new Chore();
        named.act(); // @calls(tflow.Chore.act) @calls[rta](tflow.Main.lambda$lambdas$0) @calls[xta](tflow.Main.lambda$lambdas$0) @!calls[tfa](tflow.Main.lambda$lambdas$0, tflow.Main.lambda$lambdas$1)
    }

    // pick returns a Star or a Moon as an Object; the cast lets only Stars (and
    // their subclasses, of which none is created) pass on to use. XTA's set of
    // casts holds both, and passes both to use.
    static void casts() {
        Object x = pick();
        Shape s = (Star) x;
        use(s);
    }

    static Object pick() {
        return Math.random() < 2 ? new Star() : new Moon();
    }

    // Constants are objects the JVM makes: a String literal, a class literal, and a
    // string concatenation's result (an invokedynamic) seed the sets of the values
    // they are loaded into.
    static void constants() {
        Object lit = "text";
        lit.hashCode(); // @calls(java.lang.String.hashCode)
        Object cls = Main.class;
        cls.toString(); // @calls(java.lang.Class.toString)
        Object joined = "a" + System.nanoTime();
        joined.hashCode(); // @calls(java.lang.String.hashCode)
    }

    // Two private fields, each written once here: TFA's read of a field holds what
    // was written into that field only. RTA has every created Shape at each; XTA
    // writes the writing method's whole set (both shapes, created here) into each
    // field. (Private: at level 6 the JDK's reflection and natives obey access rules
    // and write no field of the program that did not ask for access by name.)
    private static Shape first;
    private static Shape second;

    static void fields() {
        first = new Comet();
        second = new Planet();
        readFirst();
        readSecond();
    }

    static void readFirst() {
        first.name(); // @calls(tflow.Comet.name) @calls[rta](tflow.Planet.name) @calls[xta](tflow.Planet.name) @!calls[tfa](tflow.Planet.name)
    }

    static void readSecond() {
        second.name(); // @calls(tflow.Planet.name) @calls[rta](tflow.Comet.name) @calls[xta](tflow.Comet.name) @!calls[tfa](tflow.Comet.name)
    }

    // The paper's Fig. 1: x.f = b; y.f = c; z = x.m(), where m returns this.f. The
    // paper's TFA relates a field's reads to the objects whose field they read (its
    // field-access relation) and gives z a Bee only; ours keeps one set per field,
    // as XTA does, so z has the Sea that y's field holds too. The positive for
    // Sea.name under TFA records that gap: remove it when fields follow the paper.
    static void paper() {
        Holder x = new Holder();
        Holder y = new Holder();
        x.f = new Bee();
        y.f = new Sea();
        Shape z = x.m();
        z.name(); // @calls(tflow.Bee.name) @calls[tfa](tflow.Sea.name) @!calls[tfa](tflow.Comet.name, tflow.Planet.name)
    }

    // Deserialization runs in the stream's own methods, so a readObject call whose
    // receiver is never a stream (only null reaches in) deserializes nothing: no
    // hook of a serializable class runs from it. RTA cannot tell: once any
    // ObjectInputStream exists (the JDK's code creates some), every such call
    // deserializes. (Kept's hook stays reachable under TFA too: the JDK's own
    // readObject calls on its streams reach every serializable class.)
    static Object streams(java.io.ObjectInputStream in) throws Exception {
        return in == null ? null : in.readObject(); // @calls[rta](tflow.Kept.readObject) @!calls[tfa](tflow.Kept.readObject)
    }

    // The JDK's code is summarised, as the paper treats library code: what a JDK
    // method returns is any created object of its declared type (t: any Shape the
    // program creates, though the singleton list holds a's Circle), unless the
    // method returns one of its arguments unchanged, as Objects.requireNonNull does
    // (s keeps it), or objects it creates itself on every path (u and it below), or
    // the container model knows the call (a list List.of makes holds its arguments:
    // l's get returns a's Circle; cg/collections tests the model).
    static void summarised() {
        Shape a = new Circle();
        Shape s = java.util.Objects.requireNonNull(a);
        s.name(); // @calls(tflow.Circle.name) @!calls[tfa](tflow.Square.name, tflow.Moon.name, tflow.Comet.name)
        Shape t = java.util.Collections.singletonList(a).get(0);
        t.name(); // @calls(tflow.Circle.name) @calls[tfa](tflow.Square.name, tflow.Moon.name, tflow.Comet.name)
        Shape l = java.util.List.of(a).get(0);
        l.name(); // @calls(tflow.Circle.name) @calls[rta](tflow.Square.name, tflow.Moon.name, tflow.Comet.name) @!calls[tfa](tflow.Square.name, tflow.Moon.name, tflow.Comet.name)
        a.name(); // @calls(tflow.Circle.name) @!calls[tfa](tflow.Square.name, tflow.Moon.name, tflow.Comet.name)
        // ArrayList.iterator() is "return new Itr();": the iterator is an
        // ArrayList$Itr, not any Iterator (LinkedList's, which the JDK creates too).
        java.util.List<Shape> list = new java.util.ArrayList<>();
        list.add(a);
        java.util.Iterator<Shape> it = list.iterator();
        it.hasNext(); // @calls(java.util.ArrayList$Itr.hasNext) @calls[rta](java.util.LinkedList$ListItr.hasNext) @calls[xta](java.util.LinkedList$ListItr.hasNext) @!calls[tfa](java.util.LinkedList$ListItr.hasNext)
        // Collections.unmodifiableList returns its argument when that is unmodifiable
        // already (the summary keeps the argument's classes: list's ArrayList), else
        // one of two classes it creates; not a LinkedList. Its elements are list's
        // (the container model, typeflow/containers.go): a, a Circle, only; RTA and
        // XTA take any Shape.
        java.util.List<Shape> u = java.util.Collections.unmodifiableList(list);
        u.size(); // @calls(java.util.Collections$UnmodifiableCollection.size, java.util.ArrayList.size) @calls[rta](java.util.LinkedList.size) @calls[xta](java.util.LinkedList.size) @!calls[tfa](java.util.LinkedList.size)
        u.get(0).name(); // @calls(tflow.Circle.name) @calls[rta](tflow.Square.name) @calls[xta](tflow.Square.name) @!calls[tfa](tflow.Square.name)
    }

    // An exception is a value like any other until it is thrown: the local holding a
    // Minor reaches Minor's method only. What a handler catches travels up the call
    // stack, which the sets do not follow: it is any created exception of the caught
    // type (the Minor too), which is what RTA says of every Fault, and XTA of every
    // Fault in a method (exceptions are global there).
    static void exceptions() {
        Fault f = new Minor();
        f.name(); // @calls(tflow.Minor.name) @calls[rta](tflow.Major.name) @calls[xta](tflow.Major.name) @!calls[tfa](tflow.Major.name)
        try {
            throw new Major();
        } catch (Fault g) {
            g.name(); // @calls(tflow.Major.name) @calls[tfa](tflow.Minor.name)
        }
    }

    // Deserialization creates objects in the stream's code and fills their fields,
    // private ones included, with objects it creates: a Parcel comes only from
    // readObject, and its content is any Fault (every serializable class may be
    // deserialized), though no code of the program writes it.
    static void deserialized(java.io.ObjectInputStream in) throws Exception {
        Parcel p = (Parcel) in.readObject();
        p.open(); // @calls(tflow.Parcel.open)
        p.content().name(); // @calls(tflow.Minor.name, tflow.Major.name)
    }

    // A reflective instantiation returns the object it creates, of a class the
    // reflection resolver names (here from a class literal, and from a Class object
    // that comes through a private field written once), though the JDK's own
    // newInstance, summarised, returns any object.
    private static Class<? extends Shape> kind = Square.class;

    static void reflective() throws Exception {
        Shape c = Circle.class.getDeclaredConstructor().newInstance();
        c.name(); // @calls(tflow.Circle.name) @calls[rta](tflow.Square.name, tflow.Moon.name) @!calls[tfa](tflow.Square.name, tflow.Moon.name)
        Shape k = kind.getDeclaredConstructor().newInstance();
        k.name(); // @calls(tflow.Square.name) @calls[rta](tflow.Circle.name, tflow.Moon.name) @!calls[tfa](tflow.Circle.name, tflow.Moon.name)
    }

    // A constructor reference makes its object when its functional method runs, in
    // the class the JVM spins for it: the object is what that call returns, not
    // every value (the JDK's own ArrayList::new and TreeMap::new made every List and
    // Map value of the program hold those classes).
    static void references() {
        Make m = Nova::new;
        Shape n = m.make();
        n.name(); // @calls(tflow.Nova.name)
        Shape c = new Circle();
        c.name(); // @calls(tflow.Circle.name) @calls[rta](tflow.Nova.name) @calls[xta](tflow.Nova.name) @!calls[tfa](tflow.Nova.name)
    }

    static void use(Shape p) {
        p.name(); // @calls(tflow.Star.name) @calls[xta](tflow.Moon.name) @!calls[tfa](tflow.Moon.name, tflow.BigStar.name)
    }
}
