/*
 * Entry point of the "features" program. It touches every other class of the
 * package so that everything is reachable from main: a call-graph builder that
 * starts at Features.main should find a path to each construct exercised by the
 * other files (nested classes, lambdas, records, sealed types, enums, interface
 * methods, switches, try/finally, bridges, invokedynamic string concatenation,
 * static initialisers, native and synchronized methods, wide instructions, ...).
 *
 * Besides dispatching, main itself uses a few constructs: a static {} block,
 * string concatenation (invokedynamic StringConcatFactory.makeConcatWithConstants)
 * and a static field written from the initialiser.
 */
package feat;

import java.util.List;

public class Features {
    static final List<String> LOG;
    static int initCount;

    static {
        LOG = new java.util.ArrayList<>();
        initCount = 1;
        LOG.add("static init of " + Features.class.getSimpleName());
    }

    public static void main(String[] args) throws Exception {
        Nesting.run();
        Lambdas.run();
        Point p = new Point(3, 4);
        LOG.add("point " + p + " x=" + p.x() + " norm=" + p.norm());
        LOG.add("area " + Shapes.area(new Shapes.Circle(1.0)) + " " + Shapes.describe(new Shapes.Square(2)));
        for (Op op : Op.values()) {
            LOG.add(op + " " + op.apply(6, 3) + " " + Switches.onEnum(op));
        }
        Greeter g = new Greeter.Polite();
        LOG.add(g.greet("Ada") + Greeter.defaultName());
        LOG.add(Switches.onString("two") + Switches.dense(3) + Switches.sparse(1000));
        LOG.add(Resources.tryFinally() + Resources.withResources());
        LOG.add(Resources.counter() + " " + new Resources().syncBlock());
        StrBox a = new StrBox("a");
        StrBox b = new StrBox("b");
        LOG.add("cmp " + a.compareTo(b) + " " + Box.maxOf(List.of(a, b)).get());
        LOG.add(Misc.arith(7L, 2.5) + Misc.textBlock() + Misc.matrix(2, 3).length + Misc.describe(42));
        LOG.add("wide " + Wide.manyLocals(1));
        if (args.length > 0) {
            LOG.add("native " + Misc.nativeHash(args[0])); // not linked: only called when asked
        }
        for (String line : LOG) {
            System.out.println(line);
        }
    }
}
