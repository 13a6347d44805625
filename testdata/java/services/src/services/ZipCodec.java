/* The declared provider: resources/META-INF/services/services.Codec names it. */
package services;

public class ZipCodec implements Codec {
    public ZipCodec() {
    }

    public String name() {
        return "zip";
    }
}
