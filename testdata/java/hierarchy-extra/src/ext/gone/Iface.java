/* Left out of the hierarchy by the EXCLUDE directive in ext/Phantoms.java. */
package ext.gone;

public interface Iface {
}
