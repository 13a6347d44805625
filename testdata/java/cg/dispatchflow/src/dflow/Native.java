// A native override: its result is unknown (never called at run time here).
package dflow;

public abstract class Native {
    public abstract String name();

    static class Plain extends Native {
        @Override
        public String name() {
            return "dflow.Alpha";
        }
    }

    static class Foreign extends Native {
        @Override
        public native String name();
    }
}
