package cont.clone;

/** The class Sisu clones: its no-argument constructor is protected, which the clone's calls. */
public class Foo {
    private final String label;

    protected Foo() {
        this("clone of Foo");
    }

    public Foo(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
