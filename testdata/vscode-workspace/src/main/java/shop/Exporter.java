/* The exporters' interface. */
package shop;

public interface Exporter {
    String format(String order);
}
