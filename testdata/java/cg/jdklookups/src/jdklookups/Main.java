/*
 * java.lang.invoke's own lookups and class initialisations (levels 5 and 6): sites
 * that every program reaches through the JDK's method-handle code (a string
 * concatenation links through StringConcatFactory, a lambda through the
 * metafactory), whose arguments the JDK's code computes at run time.
 *
 * - A find* whose class is known and whose name is not still resolves the name in
 *   that class and its supertypes (JVMS 5.4.3.3), whatever the level assumes: the
 *   handle refers to one of the class's methods the type matches. In main, the name
 *   comes from the command line: mh.invoke() (type ()V) calls first and second,
 *   Main's static methods of that type, and not Gadget.touch, a public method
 *   the fallback of an unknown handle would call. The JDK's StringConcatHelper
 *   .lookupStatic (a name its callers pass through JavaLangAccess),
 *   ArrayAccessor.getAccessor and ValueConversions.convertPrimitive (names built
 *   from a primitive type's name) are such lookups: resolved at both levels.
 * - At level 6 the JDK model resolves the lookups whose class is computed:
 *   BindCaller.makeInjectedInvoker looks up invoke_V in the hidden class it spins
 *   from a template (its code invokes the handle it is given), and
 *   ClassSpecializer$Factory.findFactory looks up make in a species of
 *   BoundMethodHandle. At level 5 they fall back ("any member").
 * - DirectMethodHandle.shouldBeInitialized initialises, with
 *   Unsafe.ensureClassInitialized, only classes of java.lang.invoke and
 *   sun.invoke.util: at level 6 not Gadget's <clinit>, which level 5's "every
 *   <clinit>" reaches.
 * - Creating a VarHandle for a static field initialises the class
 *   (VarHandles.makeFieldHandle): findStaticVarHandle's call site is a loading
 *   site at every level, here of Counter. Lookup.ensureInitialized's call site is
 *   one too (of Ready). Inside the JDK the two Unsafe.ensureClassInitialized
 *   sites initialise what their callers pass: at level 6 they add nothing of
 *   their own (not Gadget's <clinit>); at level 5 every <clinit>.
 * - A constructor's handle: its LambdaForm allocates the object with
 *   DirectMethodHandle.allocateInstance (Unsafe.allocateInstance of a class the
 *   handle holds) and calls the constructor. The invocation site has the
 *   constructor and creates its class (Made, whose constructor is package-private:
 *   no fallback creates it), so the call on the result reaches Made.hello under
 *   RTA. At level 6 allocateInstance itself creates and initialises nothing of the
 *   program (not Gadget's <clinit>); at level 5 it runs every <clinit>.
 */
package jdklookups;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

// @levels(5,6)
public class Main {
    static int count;

    public static void main(String[] args) throws Throwable {
        String name = args.length > 0 ? args[0] : "first";
        MethodHandle mh = MethodHandles.lookup().findStatic(Main.class, name, MethodType.methodType(void.class)); // @site(resolved, methodHandle)
        mh.invoke(); // @calls(jdklookups.Main.first, jdklookups.Main.second) @!calls(jdklookups.Gadget.touch, jdklookups.Main.main)
        Runnable r = () -> count++;
        r.run();
        System.out.println("count " + count);
        java.lang.invoke.VarHandle vh = MethodHandles.lookup().findStaticVarHandle(Counter.class, "hits", int.class); // @calls(jdklookups.Counter.<clinit>) @site(resolved, loading)
        vh.getAndAdd(1);
        MethodHandles.lookup().ensureInitialized(Ready.class); // @calls(jdklookups.Ready.<clinit>) @site(resolved, loading)
        MethodHandle make = MethodHandles.lookup().findConstructor(Made.class, MethodType.methodType(void.class));
        Greeter g = (Greeter) make.invoke(); // @calls(jdklookups.Made.<init>)
        g.hello(); // @calls(jdklookups.Made.hello)
        // @!edge[level=6](java.lang.invoke.DirectMethodHandle.allocateInstance, jdklookups.Gadget.<clinit>)
        // @edge[level=5](java.lang.invoke.DirectMethodHandle.allocateInstance, jdklookups.Gadget.<clinit>)
        // @evidence[level=6](java.lang.invoke.DirectMethodHandle.allocateInstance, a constructor's direct method handle)
        // @evidence[level=6](java.lang.invoke.VarHandles.makeFieldHandle, findStaticVarHandle)
        // @!edge[level=6](java.lang.invoke.VarHandles.makeFieldHandle, jdklookups.Gadget.<clinit>)
        // @edge[level=5](java.lang.invoke.VarHandles.makeFieldHandle, jdklookups.Gadget.<clinit>)
        // @evidence[level=6](java.lang.invoke.MethodHandles$Lookup.ensureInitialized, each call of it is a loading site)
        // @!edge[level=6](java.lang.invoke.MethodHandles$Lookup.ensureInitialized, jdklookups.Gadget.<clinit>)
        // @edge[level=5](java.lang.invoke.MethodHandles$Lookup.ensureInitialized, jdklookups.Gadget.<clinit>)
        // @evidence(java.lang.StringConcatHelper.lookupStatic, the name is not known)
        // @evidence(java.lang.invoke.MethodHandleImpl$ArrayAccessor.getAccessor, the name is not known)
        // @evidence(sun.invoke.util.ValueConversions.convertPrimitive, the name is not known)
        // @evidence[level=6](java.lang.invoke.MethodHandleImpl$BindCaller.makeInjectedInvoker, invoke_V of the injected invoker)
        // @evidence[level=5](java.lang.invoke.MethodHandleImpl$BindCaller.makeInjectedInvoker, the handle may refer to any member)
        // @evidence[level=6](java.lang.invoke.ClassSpecializer$Factory.findFactory, the only ClassSpecializer)
        // @evidence[level=5](java.lang.invoke.ClassSpecializer$Factory.findFactory, the handle may refer to any member)
        // @evidence[level=6](java.lang.invoke.DirectMethodHandle.shouldBeInitialized, VerifyAccess.isSamePackage)
        // @!edge[level=6](java.lang.invoke.DirectMethodHandle.shouldBeInitialized, jdklookups.Gadget.<clinit>)
        // @edge[level=5](java.lang.invoke.DirectMethodHandle.shouldBeInitialized, jdklookups.Gadget.<clinit>)
    }

    static void first() { // @reachable
        count++;
    }

    static void second() {
        count += 2;
    }
}

// A public method of the right type that nothing calls, and a class initialiser
// nothing triggers: the fallbacks of an unknown handle and of "every <clinit>" reach
// them.
class Gadget {
    static int seed = Integer.getInteger("seed", 1);

    public static void touch() {
        seed++;
    }
}

// A static field accessed through a VarHandle: creating the handle initialises
// Counter.
class Counter {
    static int hits = Integer.getInteger("hits", 0);
}

// A class initialised by Lookup.ensureInitialized.
class Ready {
    static final long STAMP = System.nanoTime();
}

interface Greeter {
    void hello();
}

// Created only through its constructor's handle.
class Made implements Greeter {
    Made() {
    }

    @Override
    public void hello() {
        Main.count++;
    }
}
