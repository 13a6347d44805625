/*
 * Nest-mate access (JVMS 5.4.4, JDK 11+). Outer is the nest host; its nest
 * members are all the classes nested in it at any depth: the member class
 * Inner, Inner's member class Deeper, the static member class SNested, the
 * local class Local (binary name Outer$1Local) and the anonymous class
 * Outer$1. javac compiles their uses of each other's private members to
 * direct invokevirtual/invokestatic/getfield instructions (no access$NNN
 * bridges): private access is legal between classes with the same nest host
 * and illegal from anywhere else.
 *
 * The NEST directive lists the nest host's NestMembers attribute.
 */
package hier;

// NEST hier/Outer: hier/Outer$Inner hier/Outer$Inner$Deeper hier/Outer$SNested hier/Outer$1Local hier/Outer$1
class Outer {
    private int secret = 7;

    private void hidden() {
        Trace.hit("hier/Outer.hidden");
    }

    private static void shidden() {
        Trace.hit("hier/Outer.shidden");
    }

    class Inner {
        private void innerPrivate() {
            Trace.hit("hier/Outer$Inner.innerPrivate");
        }

        void call() {
            hidden(); // RESOLVE invokevirtual caller=hier/Outer$Inner hier/Outer.hidden()V -> hier/Outer.hidden
            Trace.expect("hier/Outer.hidden");
            new SNested().snPrivate(); // RESOLVE invokevirtual caller=hier/Outer$Inner hier/Outer$SNested.snPrivate()V -> hier/Outer$SNested.snPrivate
            Trace.expect("hier/Outer$SNested.snPrivate");
            new Deeper().call();
        }

        class Deeper {
            void call() {
                hidden(); // RESOLVE invokevirtual caller=hier/Outer$Inner$Deeper hier/Outer.hidden()V -> hier/Outer.hidden
                Trace.expect("hier/Outer.hidden");
                shidden(); // RESOLVE invokestatic caller=hier/Outer$Inner$Deeper hier/Outer.shidden()V -> hier/Outer.shidden
                Trace.expect("hier/Outer.shidden");
                innerPrivate(); // RESOLVE invokevirtual caller=hier/Outer$Inner$Deeper hier/Outer$Inner.innerPrivate()V -> hier/Outer$Inner.innerPrivate
                Trace.expect("hier/Outer$Inner.innerPrivate");
            }
        }
    }

    static class SNested {
        private void snPrivate() {
            Trace.hit("hier/Outer$SNested.snPrivate");
        }
    }

    void run() {
        new Inner().call();
        new Inner().innerPrivate(); // RESOLVE invokevirtual caller=hier/Outer hier/Outer$Inner.innerPrivate()V -> hier/Outer$Inner.innerPrivate
        Trace.expect("hier/Outer$Inner.innerPrivate");

        class Local {
            int call() {
                hidden(); // RESOLVE invokevirtual caller=hier/Outer$1Local hier/Outer.hidden()V -> hier/Outer.hidden
                return secret;
            }
        }
        if (new Local().call() != 7) {
            throw new AssertionError();
        }
        Trace.expect("hier/Outer.hidden");

        Runnable anon = new Runnable() {
            @Override
            public void run() {
                shidden(); // RESOLVE invokestatic caller=hier/Outer$1 hier/Outer.shidden()V -> hier/Outer.shidden
            }
        };
        anon.run(); // SELECT invokeinterface receiver=hier/Outer$1 java/lang/Runnable.run()V -> hier/Outer$1.run
        Trace.expect("hier/Outer.shidden");
    }
}

final class Nest {
    private Nest() {
    }

    static void run() {
        new Outer().run();
        // RESOLVE invokevirtual caller=hier/Nest hier/Outer.hidden()V -> !IllegalAccessError
        // RESOLVE invokestatic caller=hier/Main hier/Outer.shidden()V -> !IllegalAccessError
        // RESOLVE invokevirtual caller=hier/Outer hier/Outer$SNested.snPrivate()V -> hier/Outer$SNested.snPrivate
    }
}
