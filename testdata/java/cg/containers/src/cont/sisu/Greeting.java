package cont.sisu;

/** What the Sisu container hands out: one implementation, named by the index. */
public interface Greeting {
    String text();
}
