// Overridable methods whose results the analysis cannot bound: one override returns
// a field anyone may write, another is native.
package dflow;

public abstract class Open {
    public static String configured = "dflow.Gamma"; // public and not final: written from outside

    public abstract String name();

    static class Fixed extends Open {
        @Override
        public String name() {
            return "dflow.Alpha";
        }
    }

    static class FromField extends Open {
        @Override
        public String name() {
            return configured;
        }
    }
}
