/*
 * The standard exporter, loaded by a constant name (Loader.standard). Its constructor
 * is package-private: only reflection in this package reaches it (at Encap-Respect and
 * above, the JDK's reflective sites cannot), so its callers are a short list.
 */
package shop;

final class JsonExporter implements Exporter {
    static final String KEY = String.valueOf("order");

    JsonExporter() {
    }

    @Override
    public String format(String order) {
        return "{\"" + KEY + "\": \"" + order + "\"}";
    }
}
