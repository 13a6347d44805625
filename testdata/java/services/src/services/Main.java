/*
 * ServiceLoader at level 6, Correct-JDK: the providers of a service are what the
 * class path declares (resources/META-INF/services/services.Codec names
 * services.ZipCodec), so the reflective sites inside ServiceLoader that load and
 * instantiate providers reach ZipCodec's public no-argument constructor and not the
 * public constructors of classes no configuration names (Unlisted). At levels 1-5
 * those sites fall back to every public constructor, Unlisted's included.
 *
 * The test (analysis/resolve_jdkconfig_test.go) copies the resources next to the
 * compiled classes, as a build would.
 */
package services;

import java.util.ServiceLoader;

public class Main {
    public static void main(String[] args) {
        for (Codec c : ServiceLoader.load(Codec.class)) {
            System.out.println(c.name());
        }
    }
}
