/*
 * Reflection at Behaved-CLs (1) and Encap-Respect (2): every reflective site is
 * unresolved and falls back to the level's conservative set (assumption-levels.md),
 * even when the class or name is a literal: literals are the string analysis's
 * business (Correct-String). Each reflective call is alone on its line, so the
 * expectations on the line are about that site.
 *
 *  - loading: Class.forName(String) may initialise any class (every <clinit>);
 *    forName(name, false, loader), ClassLoader.loadClass and Lookup.findClass load
 *    without initialising, so they are sites without edges;
 *  - Class.newInstance: no-argument constructors, any at level 1, public or
 *    accessible from Main at level 2 (and every <clinit>);
 *  - Constructor.newInstance: any constructor, likewise;
 *  - Method.invoke: any concrete method at level 1; at level 2 public ones, those of
 *    package refl, and those of Main's nest (Main$Inner's private method);
 *  - Field.get: a site, no call edges.
 */
package refl;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

public class Main {
    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "refl.Plugin";
        loading(name);
        Object p = instantiate(name);
        invoke(p, args.length > 1 ? args[1] : "run");
        invokeStatic(name, args.length > 2 ? args[2] : "tick");
        fields(name);
        invokeTyped(name, args.length > 3 ? args[3] : "takes", new Plugin(), "s");
        Object made = Plugin.make(args.length);
        made.toString(); // @calls[rta](refl.PkgOnly.toString) @!calls[rta,level=2](refl.other.NotMade.toString) @calls[cha](refl.other.NotMade.toString)
    }

    static Class<?> loading(String name) throws Exception {
        Class<?> c = Class.forName(name); // @site(unresolved, loading) @calls(refl.Plugin.<clinit>, refl.other.Hidden.<clinit>, refl.other.NotMade.<clinit>)
        ClassLoader cl = Main.class.getClassLoader();
        Class.forName(name, false, cl); // @site(unresolved, loading) @!calls(refl.Plugin.<clinit>, refl.other.Hidden.<clinit>)
        Class.forName(name, args(), cl); // @site(unresolved, loading) @calls(refl.Plugin.<clinit>) initialize is not a constant
        cl.loadClass(name); // @site(unresolved, loading) @!calls(refl.Plugin.<clinit>) loadClass never initialises
        new Loader().loadClass(name); // @site(unresolved, loading) @calls(refl.Loader.loadClass) an overriding loader is a loading site too
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        lookup.findClass(name); // @site(unresolved, loading) @!calls(refl.Plugin.<clinit>)
        lookup.ensureInitialized(Plugin.class); // @site(resolved, loading) @calls(refl.Plugin.<clinit>) @!calls(refl.other.Hidden.<clinit>) a class literal
        return c;
    }

    static boolean args() {
        return System.nanoTime() > 0;
    }

    static Object instantiate(String name) throws Exception {
        Class<?> c = Class.forName(name);
        Object o = c.newInstance(); // @site(unresolved, newInstance) @calls(refl.Plugin.<init>()V, refl.PkgOnly.<init>, refl.Plugin.<clinit>) @!calls(refl.Plugin.<init>(I)V, refl.Shape.<init>)
        // Shape is abstract: newInstance throws InstantiationException before any of
        // its constructors runs, so its public constructor is not in the fallback.
        // Hidden's no-argument constructor is private, in another package:
        // @calls[level=1](refl.other.Hidden.<init>()V) @!calls[level=2](refl.other.Hidden.<init>()V)
        Constructor<?> k = c.getDeclaredConstructor(int.class); // @!site
        Object o2 = k.newInstance(42); // @site(unresolved, newInstance) @calls(refl.Plugin.<init>(I)V) @!calls(refl.Plugin.<init>()V, refl.Main$Inner.<init>)
        // The call passes one argument (an array of one element): Constructor.newInstance
        // rejects a constructor with another number of parameters before running it, so
        // the fallback holds one-parameter constructors only, not the no-argument ones.
        // A private one-parameter constructor of another package's class is in level 1's
        // set only; NotMade's package-private constructor takes no argument:
        // @calls[level=1](refl.other.Hidden.<init>(I)V) @!calls[level=2](refl.other.Hidden.<init>(I)V) @!calls(refl.other.NotMade.<init>)
        return o2 != null ? o2 : o;
    }

    static Object invoke(Object target, String method) throws Exception {
        Method m = target.getClass().getMethod(method); // @!site(invoke) getMethod is not a site; getClass is (native)
        Object r = m.invoke(target); // @site(unresolved, invoke) @calls(refl.Plugin.run, refl.PkgOnly.internal, refl.Main$Inner.secret, refl.Plugin.<clinit>) @!calls(refl.Plugin.<init>()V, refl.Plugin.make)
        // An instance method runs on an instance of its class: under RTA the
        // fallback's instance methods of the program are those of created classes.
        // Hidden's constructors are private, in another package: only level 1's
        // fallbacks create a Hidden, so from level 2 on RTA leaves out its public open.
        // @calls[cha](refl.other.Hidden.open) @calls[level=1](refl.other.Hidden.open) @!calls[rta,level=2](refl.other.Hidden.open)
        // The call passes no argument (javac makes an empty array): Method.invoke
        // rejects a method with parameters before calling it, so Plugin.make(int),
        // accessible from Main, is not in the fallback at any level.
        // Private and protected methods of refl.other's classes are level 1 only;
        // Main is no subclass of Hidden:
        // @calls[level=1](refl.other.Hidden.secret, refl.other.Hidden.guarded) @!calls[level=2](refl.other.Hidden.secret, refl.other.Hidden.guarded)
        return r;
    }

    static Object invokeStatic(String name, String method) throws Exception {
        Method m = Class.forName(name).getMethod(method);
        // The receiver is null: Method.invoke throws NullPointerException for an
        // instance method, so only static methods (taking no argument) are in the
        // fallback: Plugin.tick, not Plugin.run nor Plugin.make(int).
        return m.invoke(null); // @site(unresolved, invoke) @calls(refl.Plugin.tick) @!calls(refl.Plugin.run, refl.Plugin.make)
    }

    static Object invokeTyped(String name, String method, Plugin p, String s) throws Exception {
        Method m = Class.forName(name).getMethod(method, Plugin.class, String.class);
        // The arguments array holds a Plugin and a String (the declared classes of p
        // and s): Method.invoke rejects a method whose parameters cannot take them
        // before calling it, so the fallback holds static two-parameter methods whose
        // parameters take these classes only (Plugin.java says why for each).
        return m.invoke(null, p, s); // @site(unresolved, invoke) @calls(refl.Plugin.takes, refl.Plugin.takesSub) @!calls(refl.Plugin.refuses, refl.Plugin.refusesPrim, refl.Plugin.refusesFinal)
    }

    static Object fields(String name) throws Exception {
        Field f = Class.forName(name).getField("COUNT");
        return f.get(null); // @site(unresolved, field) @!calls(refl.Plugin.<clinit>) field access has no call edges
    }

    static class Inner {
        Inner() {
        }

        private void secret() {
        }
    }
}
