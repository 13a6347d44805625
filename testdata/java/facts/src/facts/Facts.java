/*
 * One example of each fact Extract records, with FACT directives: the text after
 * FACT must be one of the facts whose line is the attached line, rendered as
 *   call:   <opcode> <class>.<name><descriptor>
 *   indy:   invokedynamic <name><descriptor> bsm=<kind>:<class>.<name> args=<arg>,<arg>...
 *           (args: "string", int, class C, type (desc), handle <kind>:<class>.<name><desc>)
 *   alloc:  <opcode> <type> dims=<n>
 *   ldc:    ldc class <name> | ldc string "<text>"
 *   check:  checkcast <type> | instanceof <type>
 *   field:  <opcode> <class>.<name> <descriptor>
 * plus DEFS directives for the stack shapes of constructor calls, builder chains and
 * chained assignments.
 */
package facts;

import java.util.function.Supplier;

public final class Facts {
    static int counter;
    long total;

    Facts(long start) {
        total = start; // FACT putfield facts/Facts.total J
    }

    static Object calls(String name) throws Exception {
        Class<?> c = Class.forName(name); // FACT invokestatic java/lang/Class.forName(Ljava/lang/String;)Ljava/lang/Class;
        Runnable r = (Runnable) c.getDeclaredConstructor().newInstance(); // FACT checkcast java/lang/Runnable
        // FACT invokevirtual java/lang/reflect/Constructor.newInstance([Ljava/lang/Object;)Ljava/lang/Object;
        r.run(); // FACT invokeinterface java/lang/Runnable.run()V
        return new Facts(7L); // FACT new facts/Facts dims=0
        // FACT invokespecial facts/Facts.<init>(J)V
        // DEFS invokespecial facts/Facts.<init> recv: new facts/Facts; arg0: ldc 7L
    }

    static Class<?> builderChain(String simple) throws Exception {
        String name = new StringBuilder()
                .append("facts.") // DEFS invokevirtual java/lang/StringBuilder.append recv: new java/lang/StringBuilder; arg0: ldc "facts."
                .append(simple) // DEFS invokevirtual java/lang/StringBuilder.append recv: invokevirtual java/lang/StringBuilder.append; arg0: param 0
                .toString(); // DEFS invokevirtual java/lang/StringBuilder.toString recv: invokevirtual java/lang/StringBuilder.append
        return Class.forName(name); // DEFS invokestatic java/lang/Class.forName arg0: invokevirtual java/lang/StringBuilder.toString
    }

    static Object constants() {
        Class<?> k = String.class; // FACT ldc class java/lang/String
        String s = "hello"; // FACT ldc string "hello"
        Class<?> a = int[][].class; // FACT ldc class [[I
        return k == a ? s : null;
    }

    static Object arrays(int n) {
        int[] ints = new int[n]; // FACT newarray [I dims=1
        String[] strs = new String[n]; // FACT anewarray [Ljava/lang/String; dims=1
        long[][] grid = new long[n][n]; // FACT multianewarray [[J dims=2
        Object[][] nested = new Object[n][]; // FACT anewarray [[Ljava/lang/Object; dims=1
        return ints.length + strs.length + grid.length + nested.length > 0 ? ints : strs;
    }

    static boolean checks(Object o) {
        return o instanceof CharSequence; // FACT instanceof java/lang/CharSequence
    }

    long fields() {
        counter++; // FACT getstatic facts/Facts.counter I
        // FACT putstatic facts/Facts.counter I
        return total; // FACT getfield facts/Facts.total J
    }

    static String concat(String name, int n) {
        return name + "." + n; // FACT invokedynamic makeConcatWithConstants(Ljava/lang/String;I)Ljava/lang/String; bsm=6:java/lang/invoke/StringConcatFactory.makeConcatWithConstants args="\u0001.\u0001"
    }

    static Supplier<Object> lambda() {
        return Object::new; // FACT invokedynamic get()Ljava/util/function/Supplier; bsm=6:java/lang/invoke/LambdaMetafactory.metafactory args=type ()Ljava/lang/Object;,handle 8:java/lang/Object.<init>()V,type ()Ljava/lang/Object;
    }

    static String chained(String v) {
        String a;
        String b;
        a = b = v; // DEFS astore_1 value: param 0
        // DEFS astore_2 value: param 0
        return a + b; // DEFS invokedynamic makeConcatWithConstants arg0: param 0; arg1: param 0
    }

    int chainedCounter(int v) {
        return counter = v; // DEFS putstatic facts/Facts.counter value: param 0
        // DEFS ireturn value: param 0
    }

    static int switches(int k) {
        int r;
        switch (k) {
            case 1:
                r = 10;
                break;
            case 5:
                r = 50;
                break;
            default:
                r = -1;
        }
        return r; // DEFS ireturn value: ldc 10 | ldc 50 | ldc -1
    }

    static int counted(int n) {
        int i = 0;
        while (i < n) {
            i++;
        }
        return i; // DEFS ireturn value: ldc 0 | iinc
    }
}
