/*
 * Missing supertypes. The classes of package ext.gone are compiled but left out
 * of the hierarchy (EXCLUDE), as when a library jar is missing from the class
 * path: Sub's superclass Base and superinterface Iface become phantom classes.
 * Lookups that find their answer in known classes still succeed (Object is taken
 * to be the phantom's superclass); lookups that find nothing report that the
 * answer may be in the missing classes (!Incomplete) rather than
 * NoSuchMethodError, because Base really declares fromBase.
 *
 * Directives (grammar in index/hierarchy/directives_test.go):
 *   EXCLUDE <class-name prefix>      leave these classes out of the input
 *   PHANTOM <class>                  the class is a phantom
 *   SUBTYPES <class> -> <classes>    AllSubtypes, reflexive, each once, any order
 *   SUPERTYPES <class> -> <classes>  Supertypes, reflexive, each once, any order
 *   FIELD <class>.<name>:<desc> -> <class>.<name> | !<error>
 *   RESOLVE/SELECT as in testdata/java/hierarchy.
 */
package ext;

// EXCLUDE ext/gone/
// PHANTOM ext/gone/Base
// PHANTOM ext/gone/Iface
class Sub extends ext.gone.Base implements ext.gone.Iface, Known {
    int own;

    void own() {
    }
}

class SubSub extends Sub {
}

interface Known {
    default void k() {
    }
}

final class Phantoms {
    private Phantoms() {
    }

    // RESOLVE invokevirtual ext/Sub.own()V -> ext/Sub.own
    // RESOLVE invokevirtual ext/SubSub.own()V -> ext/Sub.own
    // RESOLVE invokevirtual ext/Sub.fromBase()V -> !Incomplete
    // RESOLVE invokevirtual ext/Sub.hashCode()I -> java/lang/Object.hashCode
    // RESOLVE invokevirtual ext/Sub.k()V -> ext/Known.k
    // RESOLVE invokevirtual ext/gone/Base.fromBase()V -> !Incomplete
    // SELECT invokevirtual receiver=ext/SubSub java/lang/Object.hashCode()I -> java/lang/Object.hashCode
    // SELECT invokevirtual receiver=ext/SubSub ext/Sub.own()V -> ext/Sub.own
    // SELECT invokeinterface receiver=ext/SubSub ext/Known.k()V -> ext/Known.k
    // SUPERTYPES ext/SubSub -> ext/SubSub ext/Sub ext/gone/Base java/lang/Object ext/gone/Iface ext/Known
    // SUBTYPES ext/gone/Base -> ext/gone/Base ext/Sub ext/SubSub
    // SUBTYPES ext/gone/Iface -> ext/gone/Iface ext/Sub ext/SubSub
    // FIELD ext/SubSub.own:I -> ext/Sub.own
    // FIELD ext/Sub.gone:I -> !Incomplete
}
