/*
 * Post-dominance and reaching definitions where exception edges matter. Unlike the
 * `flow` program, POSTDOM/NOPOSTDOM here are on the control-flow graph WITH exception
 * edges, as index/facts computes it: every instruction inside a try range may jump to
 * the handler, and an athrow not caught in the method exits it. Level 3 needs this:
 * if the newInstance throws to a handler that returns, the cast never runs.
 *   - catchReturns:   the handler returns: the cast no longer post-dominates forName;
 *   - catchRethrows:  the handler rethrows (an exit): same;
 *   - castInTry:      forName before the try: its successor paths may still reach
 *                     the handler, so no post-dominance either;
 *   - castOutsideTry: only the newInstance is in the try and the handler falls into
 *                     the cast: post-dominance holds across the exception edge;
 *   - handlerSeesAll: the handler sees every definition made inside the try;
 *   - synchronizedCast: javac's synchronized blocks protect their own handler;
 *   - serverLoop:     an infinite loop (no exit): post-dominance inside the body.
 */
package facts;

@SuppressWarnings("deprecation")
public final class Exceptions {
    private Exceptions() {
    }

    static Object catchReturns(String name) {
        try {
            Class<?> c = Class.forName(name); // NOPOSTDOM invokestatic java/lang/Class.forName -> checkcast java/lang/Runnable
            Object o = c.newInstance(); // NOPOSTDOM invokevirtual java/lang/Class.newInstance -> checkcast java/lang/Runnable
            return (Runnable) o; // DEFS checkcast java/lang/Runnable value: invokevirtual java/lang/Class.newInstance
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    static Object catchRethrows(String name) {
        try {
            Class<?> c = Class.forName(name); // NOPOSTDOM invokestatic java/lang/Class.forName -> checkcast java/lang/Runnable
            return (Runnable) c.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e); // DEFS invokespecial java/lang/IllegalStateException.<init> recv: new java/lang/IllegalStateException; arg0: catch java/lang/ReflectiveOperationException
        }
    }

    static Object castOutsideTry(Class<?> c) {
        Object o = null;
        try {
            o = c.newInstance(); // POSTDOM invokevirtual java/lang/Class.newInstance -> checkcast java/lang/Runnable
        } catch (ReflectiveOperationException e) {
            Sink.use(e);
        }
        return (Runnable) o; // DEFS checkcast java/lang/Runnable value: ldc null | invokevirtual java/lang/Class.newInstance
    }

    static Object handlerSeesAll() throws Exception {
        String s = "a";
        try {
            s = Sink.id("b");
            Sink.use(s);
            s = "c";
            Sink.use(s);
        } catch (RuntimeException e) {
            Sink.use(s); // DEFS invokestatic facts/Sink.use arg0: ldc "a" | invokestatic facts/Sink.id | ldc "c"
        }
        return Class.forName(s).newInstance(); // DEFS invokestatic java/lang/Class.forName arg0: ldc "a" | invokestatic facts/Sink.id | ldc "c"
    }

    static Object synchronizedCast(Object lock, Class<?> c) throws Exception {
        Object o;
        synchronized (lock) {
            o = c.newInstance(); // NOPOSTDOM invokevirtual java/lang/Class.newInstance -> checkcast java/lang/Runnable
        }
        return (Runnable) o; // DEFS checkcast java/lang/Runnable value: invokevirtual java/lang/Class.newInstance
    }

    static void serverLoop(String[] names) throws Exception {
        int i = 0;
        while (true) {
            Class<?> c = Class.forName(names[i++ % names.length]); // POSTDOM invokestatic java/lang/Class.forName -> checkcast java/lang/Runnable
            Object o = c.newInstance();
            ((Runnable) o).run(); // DEFS invokeinterface java/lang/Runnable.run recv: checkcast java/lang/Runnable
        }
    }
}
