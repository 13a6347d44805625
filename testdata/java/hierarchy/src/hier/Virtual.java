/*
 * Plain class inheritance (JVMS 5.4.3.3 method resolution, 5.4.6 selection):
 *   A declares m, B extends A and inherits it, C extends B and overrides it.
 * Also static methods (resolved through subclasses, hidden by C, never
 * selected), super calls (invokespecial selection starts at the direct
 * superclass of the caller), constructors, and the linkage errors of using
 * invokestatic on an instance method and invokevirtual on a static one.
 */
package hier;

class A {
    A() {
    }

    void m() {
        Trace.hit("hier/A.m");
    }

    static void sm() {
        Trace.hit("hier/A.sm");
    }
}

class B extends A {
    B() {
    }
}

class C extends B {
    C() {
    }

    @Override
    void m() {
        Trace.hit("hier/C.m");
    }

    static void sm() { // hides A.sm
        Trace.hit("hier/C.sm");
    }

    void superM() {
        super.m(); // SELECT invokespecial caller=hier/C hier/B.m()V -> hier/A.m
        // RESOLVE invokespecial hier/B.m()V -> hier/A.m
        Trace.expect("hier/A.m");
    }
}

final class Virtual {
    private Virtual() {
    }

    static void run() {
        A a = new A(); // RESOLVE invokespecial hier/A.<init>()V -> hier/A.<init>
        a.m(); // RESOLVE invokevirtual hier/A.m()V -> hier/A.m
        // SELECT invokevirtual receiver=hier/A hier/A.m()V -> hier/A.m
        // SELECT invokevirtual receiver=hier/B hier/A.m()V -> hier/A.m
        // SELECT invokevirtual receiver=hier/C hier/A.m()V -> hier/C.m
        Trace.expect("hier/A.m");

        B b = new B();
        b.m(); // SELECT invokevirtual receiver=hier/B hier/B.m()V -> hier/A.m
        // RESOLVE invokevirtual hier/B.m()V -> hier/A.m
        Trace.expect("hier/A.m");

        B bc = new C(); // RESOLVE invokespecial hier/C.<init>()V -> hier/C.<init>
        bc.m(); // SELECT invokevirtual receiver=hier/C hier/B.m()V -> hier/C.m
        Trace.expect("hier/C.m");

        A ac = bc;
        ac.m(); // SELECT invokevirtual receiver=hier/C hier/A.m()V -> hier/C.m
        Trace.expect("hier/C.m");

        C c = new C();
        c.m(); // RESOLVE invokevirtual hier/C.m()V -> hier/C.m
        // SELECT invokevirtual receiver=hier/C hier/C.m()V -> hier/C.m
        Trace.expect("hier/C.m");
        c.superM();

        // Static methods: resolved, never selected.
        A.sm(); // RESOLVE invokestatic hier/A.sm()V -> hier/A.sm
        Trace.expect("hier/A.sm");
        B.sm(); // RESOLVE invokestatic hier/B.sm()V -> hier/A.sm
        Trace.expect("hier/A.sm");
        C.sm(); // RESOLVE invokestatic hier/C.sm()V -> hier/C.sm
        Trace.expect("hier/C.sm");

        // Linkage errors (hypothetical instructions; javac never emits them).
        // RESOLVE invokestatic hier/A.m()V -> !IncompatibleClassChangeError
        // RESOLVE invokevirtual hier/A.sm()V -> !IncompatibleClassChangeError
        // RESOLVE invokevirtual hier/B.nosuch()V -> !NoSuchMethodError
        // RESOLVE invokevirtual hier/A.m(I)V -> !NoSuchMethodError
        // RESOLVE invokevirtual hier/I.d()V -> !IncompatibleClassChangeError
        // SELECT invokevirtual receiver=hier/B hier/B.toString()Ljava/lang/String; -> java/lang/Object.toString
    }
}
