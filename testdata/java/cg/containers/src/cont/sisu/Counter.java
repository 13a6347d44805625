package cont.sisu;

/** Bound by ExtraModule. */
public final class Counter {
    private int n;

    int next() {
        return ++n;
    }
}
