/*
 * Newer language and library features, final as of JDK 25:
 *   - a module import declaration (JDK 25, JEP 511): import module java.base;
 *   - flexible constructor bodies (JDK 25, JEP 513): statements before the
 *     explicit super(...) call in Checked's constructor;
 *   - unnamed variables _ (JDK 22) in a catch clause, a lambda and a
 *     for-each loop;
 *   - a virtual thread started with a Runnable (JDK 21);
 *   - a scoped value (JDK 25, JEP 506) bound around a lambda;
 *   - a stream gatherer (JDK 24, JEP 485) and sequenced collections (JDK 21).
 */
package j25;

import module java.base;

public final class Modern {
    private static final ScopedValue<String> USER = ScopedValue.newInstance();

    private Modern() {
    }

    static class Base {
        final int size;

        Base(int size) {
            this.size = size;
        }
    }

    static final class Checked extends Base {
        Checked(int size) {
            if (size < 0) { // allowed before super(...) since JDK 25
                throw new IllegalArgumentException("negative size");
            }
            int doubled = size * 2;
            super(doubled);
        }
    }

    static int parseOr(String s, int fallback) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException _) {
            return fallback;
        }
    }

    static String virtualThread() throws InterruptedException {
        StringBuilder out = new StringBuilder();
        Thread t = Thread.ofVirtual().name("worker").start(() -> out.append("ran in ").append(Thread.currentThread().getName()));
        t.join();
        return out.toString();
    }

    static String scoped() {
        String[] seen = new String[1];
        ScopedValue.where(USER, "ada").run(() -> seen[0] = USER.get());
        return seen[0];
    }

    static List<List<Integer>> windows(List<Integer> xs) {
        return xs.stream().gather(Gatherers.windowFixed(2)).toList();
    }

    static int count(Iterable<String> items) {
        int n = 0;
        for (String _ : items) {
            n++;
        }
        return n;
    }

    static String run() throws InterruptedException {
        List<Integer> xs = new ArrayList<>(List.of(1, 2, 3, 4, 5));
        Function<Integer, String> ignoreArg = _ -> "ignored";
        return new Checked(3).size + " " + parseOr("x", -1) + " " + virtualThread() + " " + scoped() + " "
                + windows(xs) + " " + xs.reversed().getFirst() + " " + count(List.of("a", "b")) + " " + ignoreArg.apply(1);
    }
}
