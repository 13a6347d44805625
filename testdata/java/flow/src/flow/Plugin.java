/*
 * The interface that the reflective code of the "flow" program casts its
 * freshly created instances to (the checkcast flow/Plugin that the POSTDOM
 * directives talk about).
 */
package flow;

public interface Plugin {
    String run(String arg);
}
