package wi;

public class Own {
    // The application's own unresolved site: its fallback stays in the run without
    // the JDK's, and reaches jfake.Plugin's public constructor.
    public static void main(String[] args) throws Exception {
        Class.forName(args[0]).newInstance();
    }
}
