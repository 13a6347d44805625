/*
 * Level 6, Correct-JDK (assumption-levels.md): a native method of the JDK does only
 * what its entry in analysis/jdkmodel/jdk.model says, and the NativeMethod node
 * (<native>) stands for the JVM.
 *
 * - Thread.start calls the native Thread.start0. At levels 1-5 native code may call
 *   back any public method through <native>, Worker.run among them. At level 6 the
 *   model's entry says what start0 does: the new thread runs this.run(), which
 *   selects Worker.run for a Worker, and the JVM calls Thread.exit when run returns
 *   (hotspot JavaThread::exit). So start0 itself has those edges at level 6. At
 *   levels 2-5, <native> calls every public method and, beyond level 2's access
 *   rule, what the JVM calls whatever the level: the private Thread.exit among them.
 * - System.nanoTime and Object.hashCode are natives that call nothing (their entries
 *   say none): their sites are resolved at level 6 and unresolved below.
 * - A lambda: the JDK's metafactory spins a class for it, and
 *   InnerClassLambdaMetafactory.buildCallSite instantiates that class with
 *   Constructor.newInstance. Below level 6 the class is unknown there, so any public
 *   constructor may run (Gadget's, which nothing creates). At level 6 the JDK's
 *   model of lambdas says what the spun class's constructor does: it stores the
 *   captured values and calls Object.<init>.
 * - Linking the lambda's invokedynamic, the JVM has BootstrapMethodInvoker.invoke
 *   invoke the bootstrap method. Below level 6 that handle is unknown there, so any
 *   public method may be called (exposed among them). At level 6 it is one of the
 *   methods the class path's BootstrapMethods attributes name: LambdaMetafactory's
 *   metafactory, and no method of the program.
 * - MethodHandle.invokeWithArguments: the call site in main has the handle's target
 *   (helper). Inside the JDK's invokeWithArguments, the invocation of the handle
 *   (through an invoker) is unknown below level 6 and falls back to every public
 *   method; at level 6 the JDK model leaves its targets to the call site that
 *   called invokeWithArguments.
 * - MethodHandleImpl$BindCaller.checkInjectedInvoker (reachable through the JDK's
 *   own method-handle code) invokes the injected invoker, a hidden class spun from
 *   a template whose invoke_V invokes the handle it is given; that handle is
 *   prepareForInvoker(MH_checkCallerClass), an adapter of a handle kept in a final
 *   field and found with findStatic(BindCaller.class, "checkCallerClass", ...).
 *   Below level 6 the spun class is unknown and the invocation falls back to every
 *   public method; at level 6 it calls checkCallerClass (traced through
 *   prepareForInvoker's return and the field's store).
 * - AnnotationInvocationHandler.equalsImpl (reachable through the JDK's own
 *   reflection) invokes the member methods of an annotation type (the declared
 *   methods of the annotation interface) on another annotation. Below level 6 the
 *   Method is unknown there and any public method may be called; at level 6 it is
 *   a member of some annotation interface, dispatched: TagImpl.value, an
 *   implementation the program creates, and not Main.exposed.
 * - A serializable lambda makes javac generate Main.$deserializeLambda$, which
 *   SerializedLambda.readResolve (a deserialization hook the JDK's own code reaches)
 *   invokes reflectively after looking it up by name and making it accessible: the
 *   site calls the class path's $deserializeLambda$ methods, Main's among them, at
 *   every level (they are private: a fallback to public methods would miss them).
 *   Below level 6 the Method is otherwise unknown there and any public method taking
 *   one argument may be called too (Main.exposedOne; the call passes one); at level
 *   6 only those.
 * - MappedMXBeanType$CompositeDataMXBeanType.toOpenTypeData (reachable through the
 *   JDK's management code) calls toMethod.invoke(null, data) when its package-private
 *   field toMethod is set. Below level 6 that Method is unknown and any public static
 *   method taking one argument may be called (Main.exposedOne); at level 6 the field
 *   is followed, as a package-private field of the JDK's that only its package's code
 *   stores into: the only store is its initialiser's null, so the call calls nothing.
 * - Forwarder, a proxy's handler, calls m.invoke(target, args) with the Method the
 *   proxy gives it: the method of a proxied interface called on the proxy (or one of
 *   Object's), always an instance method. The JDK's only call of
 *   InvocationHandler.invoke (AnnotationSupport.getValueArray) passes an annotation
 *   member, an instance method too. So at level 6 the call reaches instance methods
 *   of the receiver's declared type, Greeter: GreeterImpl.greet, and neither a static
 *   method (Main.exposedOne) nor an instance method of an unrelated class
 *   (Unrelated.poke). At level 5 the Method is unknown: any public method.
 * - The program has no native method of its own, so at level 6 <native> keeps no
 *   level-2 fallback: it has no edge to a public method only native code could call
 *   (exposed). The method stays reachable at level 6 all the same, through the
 *   JDK's own unresolved reflective sites, which still fall back to every public
 *   method (the closing note of the Correct-JDK issue has the numbers).
 */
package correctjdk;

// @levels(5,6)
public class Main {
    static int count;

    public static void main(String[] args) throws Throwable {
        Worker w = new Worker();
        w.start(); // @calls(java.lang.Thread.start)
        // @edge[level=6](java.lang.Thread.start0, correctjdk.Worker.run, java.lang.Thread.exit)
        // @!edge[level=6](java.lang.Thread.start0, <native>)
        // @edge[level=5](java.lang.Thread.start0, <native>) @edge[level=5](<native>, correctjdk.Worker.run, java.lang.Thread.exit)
        w.join();
        Runnable r = () -> count++;
        r.run();
        // @because[level=6](java.lang.invoke.InnerClassLambdaMetafactory.buildCallSite, java.lang.Object.<init>, the lambda class InnerClassLambdaMetafactory spins)
        // @!edge[level=6](java.lang.invoke.InnerClassLambdaMetafactory.buildCallSite, correctjdk.Gadget.<init>)
        // @edge[level=5](java.lang.invoke.InnerClassLambdaMetafactory.buildCallSite, correctjdk.Gadget.<init>)
        // @because[level=6](java.lang.invoke.BootstrapMethodInvoker.invoke, java.lang.invoke.LambdaMetafactory.metafactory, BootstrapMethods attributes)
        // @!edge[level=6](java.lang.invoke.BootstrapMethodInvoker.invoke, correctjdk.Main.exposed) @edge[level=5](java.lang.invoke.BootstrapMethodInvoker.invoke, correctjdk.Main.exposed)
        // The adapters between pull-mode and push-mode bootstrap methods (reachable
        // through the handles BootstrapMethodInvoker keeps of them) invoke the
        // bootstrap method they are bound to, likewise:
        // @!edge[level=6](java.lang.invoke.BootstrapMethodInvoker$PushAdapter.pushToBootstrapMethod, correctjdk.Main.exposed) @edge[level=5](java.lang.invoke.BootstrapMethodInvoker$PushAdapter.pushToBootstrapMethod, correctjdk.Main.exposed)
        // @!edge[level=6](java.lang.invoke.BootstrapMethodInvoker$PullAdapter.pullFromBootstrapMethod, correctjdk.Main.exposed) @edge[level=5](java.lang.invoke.BootstrapMethodInvoker$PullAdapter.pullFromBootstrapMethod, correctjdk.Main.exposed)
        // @edge[level=6](java.lang.invoke.BootstrapMethodInvoker$PullAdapter.pullFromBootstrapMethod, java.lang.invoke.LambdaMetafactory.metafactory)
        java.lang.invoke.MethodHandle mh = java.lang.invoke.MethodHandles.lookup().findStatic(Main.class, "helper",
                java.lang.invoke.MethodType.methodType(void.class));
        mh.invokeWithArguments(); // @calls(correctjdk.Main.helper)
        // @!edge[level=6](java.lang.invoke.MethodHandle.invokeWithArguments([Ljava/lang/Object;)Ljava/lang/Object;, correctjdk.Main.exposed)
        // @edge[level=5](java.lang.invoke.MethodHandle.invokeWithArguments([Ljava/lang/Object;)Ljava/lang/Object;, correctjdk.Main.exposed)
        Runnable saved = (Runnable & java.io.Serializable) () -> count++;
        saved.run();
        // @because(java.lang.invoke.SerializedLambda.readResolve, correctjdk.Main.$deserializeLambda$, $deserializeLambda$)
        // @!edge[level=6](java.lang.invoke.SerializedLambda.readResolve, correctjdk.Main.exposedOne)
        // @edge[level=5](java.lang.invoke.SerializedLambda.readResolve, correctjdk.Main.exposedOne)
        Tag tag = new TagImpl();
        // @because[level=6](sun.reflect.annotation.AnnotationInvocationHandler.equalsImpl, correctjdk.TagImpl.value, annotation type's member method)
        // @!edge[level=6](sun.reflect.annotation.AnnotationInvocationHandler.equalsImpl, correctjdk.Main.exposed)
        // @edge[level=5](sun.reflect.annotation.AnnotationInvocationHandler.equalsImpl, correctjdk.Main.exposed)
        // @because[level=6](java.lang.invoke.MethodHandleImpl$BindCaller.checkInjectedInvoker, java.lang.invoke.MethodHandleImpl$BindCaller.checkCallerClass, injected invoker)
        // @!edge[level=6](java.lang.invoke.MethodHandleImpl$BindCaller.checkInjectedInvoker, correctjdk.Main.exposed)
        // @edge[level=5](java.lang.invoke.MethodHandleImpl$BindCaller.checkInjectedInvoker, correctjdk.Main.exposed)
        // @!edge[level=6](sun.management.MappedMXBeanType$CompositeDataMXBeanType.toOpenTypeData, correctjdk.Main.exposedOne)
        // @edge[level=5](sun.management.MappedMXBeanType$CompositeDataMXBeanType.toOpenTypeData, correctjdk.Main.exposedOne)
        Greeter g = (Greeter) java.lang.reflect.Proxy.newProxyInstance(Main.class.getClassLoader(),
                new Class<?>[] {Greeter.class}, new Forwarder());
        g.greet("x");
        long t = System.nanoTime(); // @site[level=5](unresolved, native) @site[level=6](resolved, native)
        int h = new Object().hashCode(); // @site[level=5](unresolved, native) @site[level=6](resolved, native)
        if (t + h == 42 || tag.value().isEmpty()) {
            System.out.println("unlikely");
        }
    }

    static void helper() {
    }

    // Nothing in the program calls this.
    public static void exposed() { // @reachable[level=5]
    }

    // Nor this, which takes one argument.
    public static void exposedOne(Object o) {
    }

    // @!edge[level=6](<native>, correctjdk.Main.exposed) @edge[level=5](<native>, correctjdk.Main.exposed)
}

class Worker extends Thread {
    @Override
    public void run() { // @reachable
        Main.count++;
    }
}

// A public constructor nothing calls: level 5's fallback for the metafactory's
// Constructor.newInstance reaches it.
class Gadget {
    public Gadget() {
    }
}

@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
@interface Tag {
    String value();
}

// A class implementing an annotation interface: legal, and what equalsImpl's
// member invocations dispatch to when the other annotation is one.
class TagImpl implements Tag {
    @Override
    public String value() {
        return "t";
    }

    @Override
    public Class<? extends java.lang.annotation.Annotation> annotationType() {
        return Tag.class;
    }
}

interface Greeter {
    String greet(String who);
}

class GreeterImpl implements Greeter {
    @Override
    public String greet(String who) { // @reachable
        return "hi " + who;
    }
}

// @edge(correctjdk.Forwarder.invoke, correctjdk.GreeterImpl.greet)
// @!edge[level=6](correctjdk.Forwarder.invoke, correctjdk.Main.exposedOne, correctjdk.Unrelated.poke)
// @edge[level=5](correctjdk.Forwarder.invoke, correctjdk.Main.exposedOne)
// At level 5 the invocation falls back to any public method, but under RTA only
// to instance methods of created classes, and nothing creates an Unrelated:
// @edge[cha,level=5](correctjdk.Forwarder.invoke, correctjdk.Unrelated.poke) @!edge[rta,level=5](correctjdk.Forwarder.invoke, correctjdk.Unrelated.poke)
class Forwarder implements java.lang.reflect.InvocationHandler {
    private final Greeter target = new GreeterImpl();

    @Override
    public Object invoke(Object proxy, java.lang.reflect.Method m, Object[] args) throws Throwable {
        return m.invoke(target, args);
    }
}

// A public instance method of a class no Greeter is.
class Unrelated {
    public void poke(Object o) {
    }
}
