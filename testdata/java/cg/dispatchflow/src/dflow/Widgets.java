// Method objects returned by overrides of an abstract method.
package dflow;

import java.lang.reflect.Method;

public abstract class Widgets {
    public abstract Method action() throws Exception;

    public void grow() {
    }

    public void shrink() {
    }

    static class Big extends Widgets {
        @Override
        public Method action() throws Exception {
            return Big.class.getMethod("grow");
        }

        @Override
        public void grow() {
        }

        @Override
        public void shrink() {
        }
    }

    static class Small extends Widgets {
        @Override
        public Method action() throws Exception {
            return Small.class.getMethod("grow");
        }

        @Override
        public void grow() {
        }

        @Override
        public void shrink() {
        }
    }
}
