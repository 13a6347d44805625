/*
 * A Lookup made by MethodHandles.lookup() in this class: it has private access to
 * Other only, whoever uses it (acc.Lookups.plain).
 */
package acc;

import java.lang.invoke.MethodHandles;

class Other {
    static MethodHandles.Lookup lookup() {
        return MethodHandles.lookup();
    }
}
