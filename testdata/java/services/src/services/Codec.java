/* The service: see Main.java. */
package services;

public interface Codec {
    String name();
}
