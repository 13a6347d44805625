/*
 * Interface method resolution falling back to java.lang.Object (JVMS 5.4.3.4
 * step 3: a public, non-static method of Object) and selection of Object
 * methods through an interface reference:
 *   - i.toString() on an interface type that does not declare toString:
 *     javac 17 compiles it to invokevirtual java/lang/Object.toString, javac 18
 *     and later to invokeinterface hier/I.toString (JDK-8272564), which
 *     resolves to Object.toString through step 3; both forms are written as
 *     free-standing queries;
 *   - Named redeclares toString abstractly (like Comparator.equals): javac
 *     then emits invokeinterface Named.toString and resolution stops at
 *     Named.toString. Through SubNamed, a subinterface declaring nothing, the
 *     Object method is found first (5.4.3.4 step 3 precedes the superinterface
 *     search of steps 4-5);
 *   - the protected Object.clone is not found through an interface
 *     (NoSuchMethodError), whereas the public final Object.getClass is.
 * Also: a generic interface method whose implementation needs a bridge
 * (selection picks the synthetic bridge StrGetter.get()Ljava/lang/Object;,
 * which calls the real get()Ljava/lang/String;), and signature-polymorphic
 * resolution of MethodHandle.invokeExact (5.4.3.3 step 2: the resolved method
 * is the native varargs invokeExact([Ljava/lang/Object;)Ljava/lang/Object;,
 * whatever descriptor the call site uses).
 */
package hier;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

interface Named {
    @Override
    String toString();
}

class NamedImpl implements Named {
    @Override
    public String toString() {
        Trace.hit("hier/NamedImpl.toString");
        return "named";
    }
}

interface SubNamed extends Named {
}

class NamedPlain implements SubNamed {
}

interface Getter<T> {
    T get();
}

class StrGetter implements Getter<String> {
    @Override
    public String get() {
        Trace.hit("hier/StrGetter.get");
        return "s";
    }
}

final class ObjectMethods {
    private ObjectMethods() {
    }

    static void target(String s) {
        Trace.hit("hier/ObjectMethods.target");
    }

    static void run() throws Throwable {
        // The three calls below compile differently with different javac versions
        // (not --release levels): javac 17 emits invokevirtual java/lang/Object.m,
        // javac 18 and later invokeinterface hier/I.m (JDK-8272564). So their
        // expectations are free-standing and cover both encodings.
        I i = new K();
        String s = i.toString();
        int h = i.hashCode();
        Class<?> c = i.getClass();
        // SELECT invokevirtual receiver=hier/K java/lang/Object.toString()Ljava/lang/String; -> java/lang/Object.toString
        // SELECT invokevirtual receiver=hier/NamedImpl java/lang/Object.toString()Ljava/lang/String; -> hier/NamedImpl.toString
        // RESOLVE invokevirtual java/lang/Object.hashCode()I -> java/lang/Object.hashCode
        // RESOLVE invokevirtual java/lang/Object.getClass()Ljava/lang/Class; -> java/lang/Object.getClass
        // RESOLVE invokeinterface hier/I.toString()Ljava/lang/String; -> java/lang/Object.toString
        // SELECT invokeinterface receiver=hier/K hier/I.toString()Ljava/lang/String; -> java/lang/Object.toString
        // RESOLVE invokeinterface hier/I.hashCode()I -> java/lang/Object.hashCode
        // RESOLVE invokeinterface hier/I.getClass()Ljava/lang/Class; -> java/lang/Object.getClass
        // RESOLVE invokeinterface hier/I.clone()Ljava/lang/Object; -> !NoSuchMethodError
        // RESOLVE invokeinterface hier/I.finalize()V -> !NoSuchMethodError
        // RESOLVE invokeinterface hier/SubNamed.toString()Ljava/lang/String; -> java/lang/Object.toString
        // SELECT invokeinterface receiver=hier/NamedPlain hier/SubNamed.toString()Ljava/lang/String; -> java/lang/Object.toString

        Named n = new NamedImpl();
        n.toString(); // RESOLVE invokeinterface hier/Named.toString()Ljava/lang/String; -> hier/Named.toString
        // SELECT invokeinterface receiver=hier/NamedImpl hier/Named.toString()Ljava/lang/String; -> hier/NamedImpl.toString
        Trace.expect("hier/NamedImpl.toString");
        Named plain = new NamedPlain();
        String p = plain.toString(); // SELECT invokeinterface receiver=hier/NamedPlain hier/Named.toString()Ljava/lang/String; -> java/lang/Object.toString
        if (!p.startsWith("hier.NamedPlain@") || !s.startsWith("hier.K@") || h != System.identityHashCode(i) || c != K.class) {
            throw new AssertionError("Object methods misbehave: " + p + " " + s);
        }

        Getter<String> g = new StrGetter();
        g.get(); // SELECT invokeinterface receiver=hier/StrGetter hier/Getter.get()Ljava/lang/Object; -> hier/StrGetter.get
        // RESOLVE invokeinterface hier/Getter.get()Ljava/lang/Object; -> hier/Getter.get
        // RESOLVE invokevirtual hier/StrGetter.get()Ljava/lang/Object; -> hier/StrGetter.get
        // RESOLVE invokevirtual hier/StrGetter.get()Ljava/lang/String; -> hier/StrGetter.get
        Trace.expect("hier/StrGetter.get");

        MethodHandle mh = MethodHandles.lookup().findStatic(ObjectMethods.class, "target",
                MethodType.methodType(void.class, String.class));
        mh.invokeExact("x"); // RESOLVE invokevirtual java/lang/invoke/MethodHandle.invokeExact(Ljava/lang/String;)V -> java/lang/invoke/MethodHandle.invokeExact([Ljava/lang/Object;)Ljava/lang/Object;
        Trace.expect("hier/ObjectMethods.target");
    }
}
