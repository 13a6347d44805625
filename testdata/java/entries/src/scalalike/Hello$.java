package scalalike;

// The module class of the Scala object Hello (see Hello.java).
public final class Hello$ {
    public static final Hello$ MODULE$ = new Hello$();

    private Hello$() {
    }

    public void main(String[] args) {
        greet();
    }

    void greet() {
        System.out.println("hello");
    }
}
