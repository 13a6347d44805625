/*
 * The default Formatter: one line per task, built with a stream, map with a
 * lambda, and Collectors.joining.
 */
package example.report;

import example.event.TaskCompleted;
import java.util.List;
import java.util.stream.Collectors;

public class PlainFormatter implements Formatter {
    @Override
    public String format(List<TaskCompleted> tasks) {
        return tasks.stream()
                .map(t -> t.sequence() + ". " + t.task() + " (" + t.plugin() + ")")
                .collect(Collectors.joining("\n", "Report:\n", ""));
    }
}
