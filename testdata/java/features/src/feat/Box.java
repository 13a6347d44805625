/*
 * Generics and bridge methods. Box<T> erases T to Object, so:
 *   - StrBox extends Box<String> and overrides get() with the covariant return
 *     type String and set(String); javac adds the synthetic bridge methods
 *     get()Ljava/lang/Object; and set(Ljava/lang/Object;)V that cast and call
 *     the real ones (ACC_BRIDGE | ACC_SYNTHETIC);
 *   - StrBox implements Comparable<StrBox>: compareTo(StrBox) gets the bridge
 *     compareTo(Ljava/lang/Object;)I, which is what Collections/Comparator code
 *     calls through the interface.
 * StrBox is a second, package-private top-level class of this source file (its
 * SourceFile attribute says Box.java). maxOf is a generic static method with a
 * bounded type parameter whose erasure (Comparable) shows up in its descriptor;
 * its b.compareTo(best) is an invokeinterface of Comparable.compareTo(Object).
 */
package feat;

import java.util.List;

public class Box<T> {
    private T value;

    public Box(T value) {
        this.value = value;
    }

    public T get() {
        return value;
    }

    public void set(T value) {
        this.value = value;
    }

    static <B extends Comparable<B>> B maxOf(List<B> items) {
        B best = null;
        for (B b : items) {
            if (best == null || b.compareTo(best) > 0) {
                best = b;
            }
        }
        return best;
    }
}

class StrBox extends Box<String> implements Comparable<StrBox> {
    StrBox(String s) {
        super(s);
    }

    @Override
    public String get() {
        return "[" + super.get() + "]";
    }

    @Override
    public void set(String value) {
        super.set(value.trim());
    }

    @Override
    public int compareTo(StrBox other) {
        return get().compareTo(other.get());
    }
}
