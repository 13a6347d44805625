/*
 * A compact source file (JDK 25, JEP 512): no class declaration, so javac
 * declares an implicit final class named after the file (CompactMain, in the
 * unnamed package) around the top-level members. Its entry point is an
 * instance main method without parameters, and it prints with java.lang.IO,
 * which compact source files can use without an import. A call-graph builder
 * looking only for public static void main(String[]) misses this entry point.
 */
String greeting() {
    return "hello from a compact source file";
}

void main() {
    IO.println(greeting());
}
