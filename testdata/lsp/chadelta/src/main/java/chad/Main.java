package chad;

// What CHA would add under a finer algorithm (server/chadelta.go). Only Base and
// Leaf are ever created, so RTA's b.run() reaches Base.run and Leaf.run; CHA's also
// Middle.run, which runs only through Leaf.run's super call.
public class Main {
    public static void main(String[] args) {
        Base b = args.length > 0 ? new Leaf() : new Base();
        b.run();
    }
}

class Base {
    void run() {
        System.out.println("base");
    }
}

class Middle extends Base {
    @Override
    void run() {
        System.out.println("middle");
    }
}

class Leaf extends Middle {
    @Override
    void run() {
        super.run();
    }
}
