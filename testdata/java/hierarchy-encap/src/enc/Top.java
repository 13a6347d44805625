/*
 * Assumption level 2 (Encap-Respect, docs/assumption-levels.md): which methods and
 * constructors reflection may reach from a site in a given class, checked by
 * hierarchy.EncapsulationSafe / EncapsulationSafeConstructor.
 *
 * Top is a top-level class whose body holds a member class Inner with its own
 * member Deeper, a static member Sib, local classes of m1 (Top$1L1, Top$1L2), an
 * anonymous class of m1 (Top$1) and a local class of m2 (Top$1L3). They form one
 * nest: the JLS (6.6.1) makes a private member accessible anywhere in the body of
 * the top-level class that declares it, so every one of them may reach every
 * private member of the others, siblings and other methods' local classes
 * included. The program is compiled twice, for Java 17 (NestHost/NestMembers)
 * and for Java 8 (no nest attributes: the nest is derived from InnerClasses and
 * EnclosingMethod), and every directive without release= must hold for both.
 *
 * Directives (grammar in index/hierarchy/directives_test.go):
 *   ENCAP from=<class> <method> -> safe|unsafe
 *   NESTING <class> -> <top-level|member|local|anonymous> [outer=<class>] [method=<name><desc>]
 *   RESOLVE/SELECT as in testdata/java/hierarchy.
 */
package enc;

// NESTING enc/Top -> top-level
public class Top {
    private void tPriv() {
    }

    protected void tProt() {
    }

    void tPkg() {
    }

    public void tPub() {
    }

    private static void tsPriv() {
    }

    public Top() {
    }

    private Top(int x) {
    }

    Top(long x) {
    }

    protected Top(String s) {
    }

    // NESTING enc/Top$Inner -> member outer=enc/Top
    class Inner {
        private Inner() {
        }

        private void iPriv() {
        }

        // NESTING enc/Top$Inner$Deeper -> member outer=enc/Top$Inner
        class Deeper {
            private void dPriv() {
            }
        }
    }

    // NESTING enc/Top$Sib -> member outer=enc/Top
    static class Sib {
        private Sib() {
        }

        private void sPriv() {
        }
    }

    void m1() {
        // NESTING enc/Top$1L1 -> local outer=enc/Top method=m1()V
        class L1 {
            private L1() {
            }

            private void l1Priv() {
            }
        }
        // NESTING enc/Top$1L2 -> local outer=enc/Top method=m1()V
        class L2 {
            private void l2Priv() {
            }
        }
        // NESTING enc/Top$1 -> anonymous outer=enc/Top method=m1()V
        Runnable r = new Runnable() {
            @Override
            public void run() {
                new L1().l1Priv();
                new L2().l2Priv();
            }
        };
        r.run();
    }

    void m2() {
        // NESTING enc/Top$1L3 -> local outer=enc/Top method=m2()V
        class L3 {
            private void l3Priv() {
            }
        }
        new L3().l3Priv();
    }

    // Private members of the outer classes, from nested classes at any depth:
    // ENCAP from=enc/Top$Inner enc/Top.tPriv()V -> safe
    // ENCAP from=enc/Top$Inner$Deeper enc/Top.tPriv()V -> safe
    // ENCAP from=enc/Top$Inner$Deeper enc/Top.tsPriv()V -> safe
    // ENCAP from=enc/Top$Inner$Deeper enc/Top$Inner.iPriv()V -> safe
    // ENCAP from=enc/Top$1 enc/Top.tPriv()V -> safe
    // Members of nested member classes, from the outer classes:
    // ENCAP from=enc/Top enc/Top$Inner.iPriv()V -> safe
    // ENCAP from=enc/Top enc/Top$Inner$Deeper.dPriv()V -> safe
    // Siblings in the same top-level class (JLS 6.6.1):
    // ENCAP from=enc/Top$Sib enc/Top$Inner.iPriv()V -> safe
    // ENCAP from=enc/Top$Inner$Deeper enc/Top$Sib.sPriv()V -> safe
    // Local and anonymous classes of the same method, and of another method:
    // ENCAP from=enc/Top$1L1 enc/Top$1L2.l2Priv()V -> safe
    // ENCAP from=enc/Top$1 enc/Top$1L1.l1Priv()V -> safe
    // ENCAP from=enc/Top$1L2 enc/Top$1L1.l1Priv()V -> safe
    // ENCAP from=enc/Top$1L3 enc/Top$1L1.l1Priv()V -> safe
    // ENCAP from=enc/Top enc/Top$1L3.l3Priv()V -> safe
    //
    // Constructors, same rules:
    // ENCAP from=enc/Top$Inner enc/Top.<init>(I)V -> safe
    // ENCAP from=enc/Top enc/Top$Inner.<init>(Lenc/Top;)V -> safe
    // ENCAP from=enc/Top$Inner$Deeper enc/Top$Sib.<init>()V -> safe
    // ENCAP from=enc/Top$1L2 enc/Top$1L1.<init>(Lenc/Top;)V -> safe
    // ENCAP from=enc/Top$1 enc/Top$1L1.<init>(Lenc/Top;)V -> safe
    //
    // The JVM's access check (5.4.4) differs by class-file version: Java 11+ nest mates may use
    // each other's private members directly; before, javac went through access$NNN
    // methods and the JVM refused direct access.
    // RESOLVE invokevirtual caller=enc/Top$Inner$Deeper enc/Top.tPriv()V -> enc/Top.tPriv release=17
    // RESOLVE invokevirtual caller=enc/Top$Inner$Deeper enc/Top.tPriv()V -> !IllegalAccessError release=8
    // RESOLVE invokevirtual caller=enc/Top$1L3 enc/Top$1L1.l1Priv()V -> enc/Top$1L1.l1Priv release=17
    // RESOLVE invokevirtual caller=enc/Other enc/Top.tPriv()V -> !IllegalAccessError
}
