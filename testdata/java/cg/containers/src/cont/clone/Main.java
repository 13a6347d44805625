package cont.clone;

import org.eclipse.sisu.space.CloningClassSpace;
import org.eclipse.sisu.space.URLClassSpace;

/**
 * Clones Foo with Sisu's CloningClassSpace: cloneClass names a class
 * cont.clone.Foo$__sisu1, and loading it makes CloningClassLoader.findClass spin, with
 * Sisu's ASM, a class of that name that extends Foo and has one public constructor,
 * which calls Foo's protected no-argument constructor. Main instantiates the clone
 * reflectively (its constructor is public, so no setAccessible) and prints
 * "clone of Foo cont.clone.Foo$__sisu1".
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        CloningClassSpace space = new CloningClassSpace(new URLClassSpace(Main.class.getClassLoader()));
        Class<?> clone = space.cloneClass("cont.clone.Foo").load();
        Foo foo = (Foo) clone.getDeclaredConstructor().newInstance();
        System.out.println(foo.label() + " " + clone.getName());
    }
}

// The clone is spun at the defineClass call of Sisu's CloningClassLoader.findClass; its
// superclass, Foo here, is named at run time (cloneClass's argument reaches findClass
// through Sisu's deferred loading and the JDK's loadClass), so the site reaches the
// no-argument constructor of every class a clone may extend, Foo's protected one among
// them, at every level. Without it, from level 2 on, only the fallback of main's
// Constructor.newInstance could reach Foo's constructor, and only because main is in
// Foo's package: cloned from another package (as a container does), it would be missed.
// @edge(org.eclipse.sisu.space.CloningClassSpace$CloningClassLoader.findClass, cont.clone.Foo.<init>()V)
// @because(org.eclipse.sisu.space.CloningClassSpace$CloningClassLoader.findClass, cont.clone.Foo.<init>()V, Sisu's CloningClassSpace)
// @evidence(org.eclipse.sisu.space.CloningClassSpace$CloningClassLoader.findClass, the clone X$__sisuN spun at CloningClassSpace.java:)
// The clone's constructor calls no-argument constructors only, and only those the JVM
// lets a class of another run-time package call: not Foo's constructor with an
// argument, nor Hidden's package-private one, nor that of the final class Sealed.
// @!edge(org.eclipse.sisu.space.CloningClassSpace$CloningClassLoader.findClass, cont.clone.Foo.<init>(Ljava/lang/String;)V, cont.clone.Hidden.<init>, cont.clone.Sealed.<init>)
