/*
 * The event published when a plugin has run: a record (a compact canonical
 * constructor validating the sequence number, accessors, and
 * toString/equals/hashCode through ObjectMethods.bootstrap).
 */
package example.event;

public record TaskCompleted(String task, String plugin, int sequence) {
    public TaskCompleted {
        if (sequence < 1) {
            throw new IllegalArgumentException("sequence numbers start at 1");
        }
    }
}
