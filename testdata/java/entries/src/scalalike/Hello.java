package scalalike;

// What scalac makes of `object Hello { def main(args: Array[String]) = greet() }`,
// written in Java: the module class Hello$ holds the object (MODULE$) and its main
// as an instance method; the class Hello holds a static forwarder, the main the JVM
// runs. A user naming the object's class (Hello$) means that entry.
public final class Hello {
    public static void main(String[] args) {
        Hello$.MODULE$.main(args);
    }
}
