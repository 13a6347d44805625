/*
 * Level 6, Correct-JDK: the reflective and method-handle sites with which the JDK's
 * serialization and dynamic proxies create objects and call default methods
 * (analysis/resolve_jdkserialproxy.go). Below level 6 each falls back to the level's
 * conservative set (Gadget's public constructors and <clinit>, exposed); at level 6
 * the JDK's code says what they call.
 *
 * - Deserializing a Pet, ObjectStreamClass.newInstance calls cons.newInstance(): the
 *   serialization constructor, which allocates Pet (initialising it) and runs the
 *   protected no-argument constructor of Animal, its first non-serializable
 *   superclass, abstract. No level's fallback holds that constructor (abstract class,
 *   not public), so at level 5 the site is partially resolved to it, with the
 *   fallback (Gadget's constructor); at level 6 resolved to it alone.
 * - Deserializing the package-private record Point, ObjectInputStream.readRecord
 *   invokes its canonical constructor (package-private too), adapted to read the
 *   int component with Bits.getInt: at level 5 partially, at level 6 alone.
 * - Proxy.newProxyInstance instantiates the proxy class ProxyGenerator spins with
 *   cons.newInstance(h): its constructor calls Proxy.<init>(InvocationHandler), and
 *   its <clinit> loads Greeter (the proxy interface) and Settings (a parameter of
 *   Greeter.greet) with Class.forName, which initialises them. Level 5 falls back to
 *   every public constructor taking one argument (Gadget's).
 * - The handler calls InvocationHandler.invokeDefault, whose Proxy.invokeDefault
 *   invokes a handle to the default method Greeter.hello; level 5 falls back to any
 *   public method (exposed).
 * - ReflectionFactory.readObjectForSerialization (sun.reflect's, for serialization
 *   libraries) unreflects Pet's private readObject after setAccessible(true): the
 *   lookup adds it to the handles an unresolved invocation (callHook's) may call, at
 *   level 5 too (partially: no fallback holds a private method of another class).
 * - BootstrapConstructorAccessorImpl.newInstance (reachable in the JDK's reflection)
 *   allocates an object of its constructor's class, a subclass of
 *   ConstructorAccessorImpl, initialising it (NativeConstructorAccessorImpl's
 *   <clinit>); level 5 falls back to every <clinit> (Gadget's).
 *
 * Prints "hello Rex 3 greet".
 */
package sp;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;

// @levels(5,6) @algos(rta,tfa)
public class Main {
    public static void main(String[] args) throws Throwable {
        Pet rex = (Pet) roundTrip(new Pet("Rex"));
        // @because(java.io.ObjectStreamClass.newInstance, sp.Animal.<init>, serialization constructor)
        // @edge[level=6](java.io.ObjectStreamClass.newInstance, sp.Pet.<clinit>)
        // @!edge[level=6](java.io.ObjectStreamClass.newInstance, sp.Gadget.<init>) @edge[level=5](java.io.ObjectStreamClass.newInstance, sp.Gadget.<init>)
        Point p = (Point) roundTrip(new Point(3, "p"));
        // @because(java.io.ObjectInputStream.readRecord, sp.Point.<init>, canonical constructor)
        // @because[level=6](java.io.ObjectInputStream.readRecord, java.io.Bits.getInt, canonical constructor)
        // @!edge[level=6](java.io.ObjectInputStream.readRecord, sp.Gadget.<init>, sp.Main.exposed)
        // @edge[level=5](java.io.ObjectInputStream.readRecord, sp.Gadget.<init>, sp.Main.exposed)
        InvocationHandler h = new Handler();
        Greeter g = (Greeter) Proxy.newProxyInstance(Main.class.getClassLoader(), new Class<?>[] {Greeter.class}, h);
        // @because[level=6](java.lang.reflect.Proxy.newProxyInstance(Ljava/lang/Class;Ljava/lang/reflect/Constructor;Ljava/lang/reflect/InvocationHandler;)Ljava/lang/Object;, java.lang.reflect.Proxy.<init>(Ljava/lang/reflect/InvocationHandler;)V, proxy class)
        // @edge[level=6](java.lang.reflect.Proxy.newProxyInstance(Ljava/lang/Class;Ljava/lang/reflect/Constructor;Ljava/lang/reflect/InvocationHandler;)Ljava/lang/Object;, sp.Greeter.<clinit>, sp.Settings.<clinit>)
        // @!edge[level=6](java.lang.reflect.Proxy.newProxyInstance(Ljava/lang/Class;Ljava/lang/reflect/Constructor;Ljava/lang/reflect/InvocationHandler;)Ljava/lang/Object;, sp.Gadget.<init>, sp.Gadget.<clinit>)
        // @edge[level=5](java.lang.reflect.Proxy.newProxyInstance(Ljava/lang/Class;Ljava/lang/reflect/Constructor;Ljava/lang/reflect/InvocationHandler;)Ljava/lang/Object;, sp.Gadget.<init>)
        System.out.println(g.hello() + " " + rex.name + " " + p.x() + " " + g.greet(null));
        // @because[level=6](java.lang.reflect.Proxy.invokeDefault, sp.Greeter.hello, default method)
        // @!edge[level=6](java.lang.reflect.Proxy.invokeDefault, sp.Main.exposed) @edge[level=5](java.lang.reflect.Proxy.invokeDefault, sp.Main.exposed)
        // @evidence[level=6](java.lang.reflect.Proxy.defaultMethodHandle, findSpecial of the default method)
        // @edge[level=6](jdk.internal.reflect.BootstrapConstructorAccessorImpl.newInstance, jdk.internal.reflect.NativeConstructorAccessorImpl.<clinit>)
        // @!edge[level=6](jdk.internal.reflect.BootstrapConstructorAccessorImpl.newInstance, sp.Gadget.<clinit>)
        // @edge[level=5](jdk.internal.reflect.BootstrapConstructorAccessorImpl.newInstance, sp.Gadget.<clinit>)
        MethodHandle hook = sun.reflect.ReflectionFactory.getReflectionFactory().readObjectForSerialization(Pet.class);
        if (args.length > 0) {
            callHook(hook, rex);
        }
    }

    // The handle is a parameter: the invocation falls back to the conservative set,
    // with the targets of every reachable lookup (Pet's private readObject among
    // them, through ReflectionFactory's unreflect).
    static void callHook(MethodHandle hook, Object o) throws Throwable {
        hook.invoke(o, (ObjectInputStream) null); // @calls(sp.Pet.readObject) @!calls(sp.Pet.writeObject)
    }

    static Object roundTrip(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }

    // Nothing in the program calls this.
    public static void exposed() {
    }
}

abstract class Animal {
    protected Animal() {
    }
}

class Pet extends Animal implements Serializable {
    static final List<String> KINDS = List.of("dog");
    final String name;

    Pet(String name) {
        this.name = name;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
    }

    // Not a hook: it does not take the stream.
    private void writeObject() {
    }
}

record Point(int x, String label) implements Serializable {
}

interface Greeter {
    List<String> NAMES = List.of("greeter");

    default String hello() {
        return "hello";
    }

    String greet(Settings s);
}

class Settings {
    static final List<String> KEYS = List.of("key");
}

class Handler implements InvocationHandler {
    public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
        if (m.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, m, args);
        }
        return m.getName();
    }
}

// Nothing creates it; its constructors are public.
class Gadget {
    static final List<String> PARTS = List.of("part");

    public Gadget() {
    }

    public Gadget(Object o) {
    }
}
