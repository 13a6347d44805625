/*
 * Lambdas and method references. Each is an invokedynamic whose bootstrap is
 * LambdaMetafactory.metafactory; the bootstrap arguments name the implementation
 * method handle:
 *   - a non-capturing lambda         -> private static synthetic lambda$run$N
 *   - a lambda capturing a local     -> private static lambda$... with the captured value as leading parameter
 *   - a lambda capturing this        -> private (instance) lambda$...
 *   - static method reference        Integer::parseInt    (REF_invokeStatic)
 *   - bound instance method ref      prefix::concat        (REF_invokeVirtual, receiver captured)
 *   - unbound instance method ref    String::length        (REF_invokeVirtual, receiver is the first argument)
 *   - interface method ref           List::size            (REF_invokeInterface)
 *   - constructor reference          StringBuilder::new    (REF_newInvokeSpecial)
 *   - array constructor reference    String[]::new         (javac makes a synthetic lambda$ for it)
 *   - super method reference         super::toString       (javac makes a synthetic lambda$ calling invokespecial)
 *   - a Serializable lambda          (altMetafactory and a $deserializeLambda$ method)
 */
package feat;

import java.io.Serializable;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

public class Lambdas {
    private final String prefix = "pre-";

    interface SerFn extends Function<String, String>, Serializable {
    }

    String instanceLambdas() {
        Supplier<String> capturesThis = () -> prefix + "this";
        Function<String, String> bound = prefix::concat;
        Supplier<String> superRef = super::toString;
        return capturesThis.get() + bound.apply("bound") + superRef.get().startsWith("feat.Lambdas@");
    }

    static void run() {
        Runnable nonCapturing = () -> Features.LOG.add("lambda");
        nonCapturing.run();
        int base = 10;
        IntFunction<Integer> capturing = n -> n + base;
        Function<String, Integer> staticRef = Integer::parseInt;
        ToIntFunction<String> unbound = String::length;
        ToIntFunction<List<?>> iface = List::size;
        Supplier<StringBuilder> ctor = StringBuilder::new;
        BiFunction<String, Integer, Point> ctor2 = (s, n) -> new Point(s.length(), n);
        IntFunction<String[]> arrayCtor = String[]::new;
        SerFn serializable = s -> s.toUpperCase();
        Features.LOG.add(capturing.apply(1) + " " + staticRef.apply("12") + " " + unbound.applyAsInt("abc")
                + " " + iface.applyAsInt(List.of(1, 2)) + " " + ctor.get().append("sb") + " " + ctor2.apply("xy", 5)
                + " " + arrayCtor.apply(3).length + " " + serializable.apply("ser") + " " + new Lambdas().instanceLambdas());
    }
}
