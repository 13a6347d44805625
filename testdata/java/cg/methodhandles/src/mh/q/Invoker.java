/*
 * Invokes handles it receives: the site is unresolved. At Behaved-CLs it may call any
 * method; at Encap-Respect public ones and those accessible from Invoker, plus the
 * targets of every reachable lookup: Main.hiddenTarget (private to Main, looked up
 * with literals in Main) and Secret.priv (Secret has an unresolved lookup, so what
 * Secret may access joins). Locked.locked is private and nobody looks it up.
 */
package mh.q;

import java.lang.invoke.MethodHandle;

public class Invoker {
    public static void call(MethodHandle h) throws Throwable {
        h.invoke(); // @site(unresolved, methodHandle) @calls(mh.q.Secret.pub, mh.Main.hiddenTarget, mh.q.Secret.priv) @calls[level=1](mh.q.Locked.locked) @!calls[level=2](mh.q.Locked.locked)
    }
}
