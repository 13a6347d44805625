/*
 * Other is a top-level class in Top's package, outside Top's nest: it reaches
 * Top's public, protected (JLS 6.6.2: protected includes package access) and
 * package-private members, never private ones. See Top.java for the grammar.
 */
package enc;

// NESTING enc/Other -> top-level
class Other {
    // ENCAP from=enc/Other enc/Top.tPub()V -> safe
    // ENCAP from=enc/Other enc/Top.tPkg()V -> safe
    // ENCAP from=enc/Other enc/Top.tProt()V -> safe
    // ENCAP from=enc/Other enc/Top.tPriv()V -> unsafe
    // ENCAP from=enc/Other enc/Top$Inner.iPriv()V -> unsafe
    // ENCAP from=enc/Other enc/Top$1L1.l1Priv()V -> unsafe
    // ENCAP from=enc/Other enc/Top.<init>()V -> safe
    // ENCAP from=enc/Other enc/Top.<init>(J)V -> safe
    // ENCAP from=enc/Other enc/Top.<init>(Ljava/lang/String;)V -> safe
    // ENCAP from=enc/Other enc/Top.<init>(I)V -> unsafe
    // ENCAP from=enc/Other enc/Top$Sib.<init>()V -> unsafe
}
