/*
 * Where does the class name passed to Class.forName come from? Def-use cases
 * for a reaching-definitions / value-source analysis, with the expected sources
 * in DEFS directives (grammar in testdata/java/README.md):
 *   - a string literal (ldc);
 *   - a static final String compile-time constant: javac inlines it, so the
 *     bytecode has an ldc, not a getstatic;
 *   - a static final String that is not a compile-time constant, and a
 *     mutable static field: getstatic;
 *   - a private method returning a constant: the def is the call (an
 *     interprocedural analysis follows it to the ldc at the callee's areturn);
 *   - String.valueOf and a StringBuilder.append chain;
 *   - a method parameter, and System.getProperty.
 */
package flow;

public final class Names {
    static final String CONST_NAME = "flow.Target"; // a compile-time constant
    static final String COMPUTED_NAME = String.valueOf(new char[] {'f', 'l', 'o', 'w', '.', 'O', 't', 'h', 'e', 'r'});
    static String mutableName = "flow.Target";

    private Names() {
    }

    static Class<?> literal() throws ClassNotFoundException {
        return Class.forName("flow.Target"); // DEFS invokestatic java/lang/Class.forName arg0: ldc "flow.Target"
    }

    static Class<?> constantField() throws ClassNotFoundException {
        return Class.forName(CONST_NAME); // DEFS invokestatic java/lang/Class.forName arg0: ldc "flow.Target"
    }

    static Class<?> computedField() throws ClassNotFoundException {
        return Class.forName(COMPUTED_NAME); // DEFS invokestatic java/lang/Class.forName arg0: getstatic flow/Names.COMPUTED_NAME
    }

    static Class<?> mutableField() throws ClassNotFoundException {
        return Class.forName(mutableName); // DEFS invokestatic java/lang/Class.forName arg0: getstatic flow/Names.mutableName
    }

    private static String targetName() {
        return "flow.Target"; // DEFS areturn value: ldc "flow.Target"
    }

    static Class<?> viaPrivateMethod() throws ClassNotFoundException {
        return Class.forName(targetName()); // DEFS invokestatic java/lang/Class.forName arg0: invokestatic flow/Names.targetName
    }

    static Class<?> viaValueOf() throws ClassNotFoundException {
        Object name = CONST_NAME;
        String s = String.valueOf(name); // DEFS invokestatic java/lang/String.valueOf arg0: ldc "flow.Target"
        return Class.forName(s); // DEFS invokestatic java/lang/Class.forName arg0: invokestatic java/lang/String.valueOf
    }

    static Class<?> viaBuilder(String simpleName) throws ClassNotFoundException {
        StringBuilder sb = new StringBuilder(); // DEFS invokespecial java/lang/StringBuilder.<init> recv: new java/lang/StringBuilder
        sb.append("flow") // DEFS invokevirtual java/lang/StringBuilder.append recv: new java/lang/StringBuilder; arg0: ldc "flow"
                .append('.') // DEFS invokevirtual java/lang/StringBuilder.append recv: invokevirtual java/lang/StringBuilder.append; arg0: ldc 46
                .append(simpleName); // DEFS invokevirtual java/lang/StringBuilder.append recv: invokevirtual java/lang/StringBuilder.append; arg0: param 0
        String name = sb.toString(); // DEFS invokevirtual java/lang/StringBuilder.toString recv: new java/lang/StringBuilder
        return Class.forName(name); // DEFS invokestatic java/lang/Class.forName arg0: invokevirtual java/lang/StringBuilder.toString
    }

    static Class<?> fromParameter(String name) throws ClassNotFoundException {
        return Class.forName(name); // DEFS invokestatic java/lang/Class.forName arg0: param 0
    }

    static Class<?> fromProperty() throws ClassNotFoundException {
        String name = System.getProperty("flow.plugin", CONST_NAME); // DEFS invokestatic java/lang/System.getProperty arg0: ldc "flow.plugin"; arg1: ldc "flow.Target"
        return Class.forName(name); // DEFS invokestatic java/lang/Class.forName arg0: invokestatic java/lang/System.getProperty
    }

    static Class<?> concatenated(String simpleName) throws ClassNotFoundException {
        return Class.forName("flow." + simpleName); // DEFS invokestatic java/lang/Class.forName arg0: invokedynamic makeConcatWithConstants
    }
}
