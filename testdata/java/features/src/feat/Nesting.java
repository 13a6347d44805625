/*
 * Nested classes. javac compiles each of these to its own class file and links
 * them with InnerClasses, EnclosingMethod and (JDK 11+) NestHost/NestMembers
 * attributes:
 *   - Nesting$Inner         an inner (non-static member) class: its constructor
 *                           takes the outer instance, stored in this$0;
 *   - Nesting$Inner$Deeper  a member class of a member class;
 *   - Nesting$StaticNested  a static member class;
 *   - Nesting$1Local        a local class declared in a method, capturing a
 *                           local variable (val$base) and the outer instance;
 *   - Nesting$1             an anonymous class implementing Runnable;
 *   - Nesting$2             an anonymous subclass of StaticNested overriding a method.
 * The inner classes read and call private members of Nesting directly, which
 * JDK 11+ compiles to plain field accesses and invokevirtual/invokestatic
 * instructions on Nesting (nest-mate access) instead of access$NNN bridges.
 */
package feat;

public class Nesting {
    private int secret = 41;

    private int bump() {
        return ++secret;
    }

    private static String tag(String s) {
        return "<" + s + ">";
    }

    /** Inner member class: has an implicit reference to the enclosing Nesting. */
    public class Inner {
        int peek() {
            return bump(); // nest-mate call of a private method of the outer class
        }

        /** Member class of a member class. */
        public class Deeper {
            String where() {
                return tag("deeper " + secret + " " + peek());
            }
        }
    }

    /** Static member class. */
    public static class StaticNested {
        String name() {
            return "static-nested";
        }
    }

    int localClass(int base) {
        class Local {
            int plus(int n) {
                return base + n + secret;
            }
        }
        return new Local().plus(1);
    }

    String anonymous() {
        final String[] out = new String[1];
        Runnable r = new Runnable() {
            @Override
            public void run() {
                out[0] = tag("anon " + bump());
            }
        };
        r.run();
        StaticNested sub = new StaticNested() {
            @Override
            String name() {
                return "anonymous-subclass-of-" + super.name();
            }
        };
        return out[0] + sub.name();
    }

    static void run() {
        Nesting n = new Nesting();
        Nesting.Inner inner = n.new Inner();
        Nesting.Inner.Deeper deeper = inner.new Deeper();
        Features.LOG.add(deeper.where() + n.localClass(1) + n.anonymous() + new StaticNested().name());
    }
}
