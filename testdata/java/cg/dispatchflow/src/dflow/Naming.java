// Names and classes returned by overridable methods: an abstract class whose
// subclasses return constants, or a parameter bound per call.
package dflow;

public abstract class Naming {
    public abstract String name();

    public abstract Class<?> kind();

    // Overridden in Picky to return its argument.
    public String pick(String s) {
        return "dflow.Alpha";
    }

    static final class First extends Naming {
        @Override
        public String name() {
            return "dflow.Alpha";
        }

        @Override
        public Class<?> kind() {
            return Alpha.class;
        }
    }

    static class Second extends Naming {
        @Override
        public String name() {
            return "dflow." + "Beta";
        }

        @Override
        public Class<?> kind() {
            return Beta.class;
        }
    }

    // Inherits name() and kind() from Second: no new target.
    static class Third extends Second {
    }

    static class Picky extends Naming {
        @Override
        public String name() {
            return "dflow.Beta";
        }

        @Override
        public Class<?> kind() {
            return Beta.class;
        }

        @Override
        public String pick(String s) {
            return s;
        }
    }
}
