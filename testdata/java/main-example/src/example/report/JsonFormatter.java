/*
 * The --json Formatter: a hand-written JSON array built with a StringBuilder
 * and a private escaping helper.
 */
package example.report;

import example.event.TaskCompleted;
import java.util.List;

public class JsonFormatter implements Formatter {
    @Override
    public String format(List<TaskCompleted> tasks) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < tasks.size(); i++) {
            TaskCompleted t = tasks.get(i);
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"task\":").append(quote(t.task()))
                    .append(",\"plugin\":").append(quote(t.plugin()))
                    .append(",\"sequence\":").append(t.sequence()).append('}');
        }
        return sb.append(']').toString();
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
