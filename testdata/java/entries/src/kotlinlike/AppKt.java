package kotlinlike;

// What kotlinc makes of a file App.kt with a top-level `fun main(args: Array<String>)`:
// the file class AppKt with a static main. A user may name the file (App).
public final class AppKt {
    public static void main(String[] args) {
        run();
    }

    static void run() {
        System.out.println("app");
    }
}
