/*
 * Formats the completed tasks for the final report. Two implementations,
 * PlainFormatter and JsonFormatter; Main picks one at run time, so the call
 * formatter.format(done) has two possible targets.
 */
package example.report;

import example.event.TaskCompleted;
import java.util.List;

public interface Formatter {
    String format(List<TaskCompleted> tasks);
}
