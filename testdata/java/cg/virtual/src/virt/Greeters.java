/*
 * Interface dispatch. Inheriting implements Greeter through a method it inherits
 * from Base, which does not itself implement Greeter (JVMS 5.4.6 selects Base.greet).
 * polite is a default method that only French overrides.
 */
package virt;

interface Greeter {
    String greet();

    default String polite() { // @reachable
        return "please, " + greet(); // @calls(virt.English.greet, virt.French.greet, virt.Base.greet)
    }
}

class English implements Greeter {
    English() {
    }

    public String greet() {
        return "hello";
    }
}

class French implements Greeter {
    French() {
    }

    public String greet() {
        return "bonjour";
    }

    public String polite() {
        return "s'il vous plait";
    }
}

class Base {
    Base() {
    }

    public String greet() { // @reachable
        return "hi";
    }
}

class Inheriting extends Base implements Greeter {
    Inheriting() {
    }
}

// Never instantiated; its constructor is package-private.
class Silent implements Greeter {
    Silent() {
    }

    public String greet() {
        return "";
    }
}
