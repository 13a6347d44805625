/*
 * Protected members across packages (JLS 6.6.2): Sub extends enc.other.Base, so
 * code in Sub's body (its nested classes included, at any depth) may call Base's
 * protected methods, static or not; NotSub may not. Protected constructors of
 * another package are reachable only through super(...) and anonymous class
 * bodies (JLS 6.6.2.2), never by reflection, even from a subclass. Package-private
 * and private members of Base are not reachable from enc at all. Every class
 * extends Object, so Object's protected methods are reachable from anywhere.
 * See Top.java for the grammar.
 */
package enc;

class Sub extends enc.other.Base {
    // NESTING enc/Sub$In -> member outer=enc/Sub
    class In {
        // NESTING enc/Sub$In$InIn -> member outer=enc/Sub$In
        class InIn {
        }
    }

    static class SIn {
    }

    // ENCAP from=enc/Sub enc/other/Base.bProt()V -> safe
    // ENCAP from=enc/Sub$In enc/other/Base.bProt()V -> safe
    // ENCAP from=enc/Sub$In$InIn enc/other/Base.bsProt()V -> safe
    // ENCAP from=enc/Sub$SIn enc/other/Base.bProt()V -> safe
    // ENCAP from=enc/Sub enc/other/Base.bPkg()V -> unsafe
    // ENCAP from=enc/Sub enc/other/Base.bPriv()V -> unsafe
    // ENCAP from=enc/Sub enc/other/Base.<init>()V -> unsafe
    // ENCAP from=enc/Sub$In enc/other/Base.<init>()V -> unsafe
    // The JVM's access check: protected instance methods need a subclass caller and a
    // symbolic reference to the caller's class or a class related to it (5.4.4).
    // RESOLVE invokevirtual caller=enc/Sub enc/Sub.bProt()V -> enc/other/Base.bProt
    // RESOLVE invokevirtual caller=enc/Sub enc/other/Base.bProt()V -> enc/other/Base.bProt
    // RESOLVE invokevirtual caller=enc/Sub$In enc/Sub.bProt()V -> !IllegalAccessError
    // RESOLVE invokevirtual caller=enc/Sub enc/other/SubTop.bProt()V -> !IllegalAccessError
    // RESOLVE invokestatic caller=enc/Sub enc/other/SubTop.bsProt()V -> enc/other/Base.bsProt
}

class NotSub {
    // ENCAP from=enc/NotSub enc/other/Base.bProt()V -> unsafe
    // ENCAP from=enc/NotSub enc/other/Base.bsProt()V -> unsafe
    // ENCAP from=enc/NotSub enc/other/Base.bPub()V -> safe
    // ENCAP from=enc/NotSub java/lang/Object.clone()Ljava/lang/Object; -> safe
    // ENCAP from=enc/NotSub java/lang/Object.<init>()V -> safe
}
