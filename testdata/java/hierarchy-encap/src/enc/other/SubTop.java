/*
 * Classes of enc.other looking at enc.Top: SubTop extends Base (a sibling of
 * enc.Sub, which enc/Sub.java uses for the JVM's protected-access rule),
 * Stranger is unrelated to Top, TopKid extends Top. Top's package-private
 * members are out of reach for all of them, its protected methods only for the
 * subclass TopKid, and its protected constructor for none (by reflection). See
 * enc/Top.java for the grammar.
 */
package enc.other;

public class SubTop extends Base {
    // ENCAP from=enc/other/SubTop enc/Top.tPkg()V -> unsafe
    // ENCAP from=enc/other/SubTop enc/Top.<init>(Ljava/lang/String;)V -> unsafe
    // ENCAP from=enc/other/SubTop enc/other/Base.bPkg()V -> safe
}

class Stranger {
    // ENCAP from=enc/other/Stranger enc/Top.tPub()V -> safe
    // ENCAP from=enc/other/Stranger enc/Top.tPkg()V -> unsafe
    // ENCAP from=enc/other/Stranger enc/Top.tProt()V -> unsafe
    // ENCAP from=enc/other/Stranger enc/Top.<init>()V -> safe
    // ENCAP from=enc/other/Stranger enc/Top.<init>(Ljava/lang/String;)V -> unsafe
    // ENCAP from=enc/other/Stranger enc/other/Base.bProt()V -> safe
}

class TopKid extends enc.Top {
    // ENCAP from=enc/other/TopKid enc/Top.tProt()V -> safe
    // ENCAP from=enc/other/TopKid enc/Top.tPkg()V -> unsafe
    // ENCAP from=enc/other/TopKid enc/Top.<init>(Ljava/lang/String;)V -> unsafe
}
