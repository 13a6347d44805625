/* A public class with a public constructor that no configuration names. */
package services;

public class Unlisted implements Codec {
    public Unlisted() {
    }

    public String name() {
        return "unlisted";
    }
}
