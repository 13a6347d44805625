package open;

import java.util.ArrayList;
import java.util.List;

// The hover's note on a call whose receiver is a public field (ide/hover.go,
// openFieldNote; server TestOpenFieldHover). Under TFA the size call on the public
// field may reach the size of every List the program (the JDK included) creates:
// code the analysis does not follow may store any of them in it. The private field
// holds the ArrayList made here, and the size call on it reaches ArrayList's only.
public class Main {
    public static List<String> shared = new ArrayList<>();
    private static List<String> own = new ArrayList<>();

    public static void main(String[] args) {
        shared.add("a");
        own.add("b");
        System.out.println(shared.size());
        System.out.println(own.size());
    }
}
