/*
 * A ClassLoader subclass. The program calls its loadClass(String), which is an
 * ordinary virtual call; ClassLoader.loadClass(String, boolean) in the JDK calls
 * findClass on the loader, so MyLoader.findClass is reached from the JDK. The JVM
 * itself calls loadClass(String) on a class's defining loader to resolve the
 * classes it refers to (from native code, so through <native>: loadClass is
 * public).
 *
 * The dynamic loading site (loadClass with a class name) is the reflection
 * resolvers' business (testdata/java/cg/reflection); here only the loader's own
 * edges are checked.
 */
package loading;

public class Main {
    public static void main(String[] args) throws Exception {
        MyLoader loader = new MyLoader(Main.class.getClassLoader()); // @calls(loading.MyLoader.<init>)
        Class<?> c = loader.loadClass("loading.Main"); // @calls(loading.MyLoader.loadClass(Ljava/lang/String;)Ljava/lang/Class;)
        ClassLoader plain = loader;
        plain.loadClass("java.lang.String"); // @calls(loading.MyLoader.loadClass(Ljava/lang/String;)Ljava/lang/Class;, java.lang.ClassLoader.loadClass(Ljava/lang/String;)Ljava/lang/Class;)
        System.out.println(c.getName());
    }
}

class MyLoader extends ClassLoader {
    MyLoader(ClassLoader parent) {
        super(parent); // @calls(java.lang.ClassLoader.<init>(Ljava/lang/ClassLoader;)V)
    }

    @Override
    public Class<?> loadClass(String name) throws ClassNotFoundException { // @reachable
        if (name.startsWith("loading.plugin.")) {
            return findClass(name); // @callees(loading.MyLoader.findClass)
        }
        return super.loadClass(name); // @calls(java.lang.ClassLoader.loadClass(Ljava/lang/String;)Ljava/lang/Class;)
    }

    // Called by this class's loadClass and by ClassLoader.loadClass(String, boolean).
    // @edge(java.lang.ClassLoader.loadClass(Ljava/lang/String;Z)Ljava/lang/Class;, loading.MyLoader.findClass)
    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException { // @reachable
        byte[] b = new byte[0];
        return defineClass(name, b, 0, b.length); // @calls(java.lang.ClassLoader.defineClass(Ljava/lang/String;[BII)Ljava/lang/Class;)
    }
}

// @edge(<native>, loading.MyLoader.loadClass(Ljava/lang/String;)Ljava/lang/Class;) the JVM resolving classes through MyLoader
