/* An exporter chosen by name at run time (Loader.load). */
package shop;

final class CsvExporter implements Exporter {
    static final String SEPARATOR = String.valueOf(',');

    CsvExporter() {
    }

    @Override
    public String format(String order) {
        return order.replace(' ', SEPARATOR.charAt(0));
    }
}
