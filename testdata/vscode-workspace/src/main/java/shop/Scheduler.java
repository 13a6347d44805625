/* Runs queued tasks: the Runnable.run call in runAll is where the lambdas run. */
package shop;

import java.util.ArrayList;
import java.util.List;

public final class Scheduler {
    static final List<String> LOG = new ArrayList<>();
    private static final List<Runnable> TASKS = new ArrayList<>();

    private Scheduler() {
    }

    static void later(Runnable task) {
        TASKS.add(task);
    }

    static void runAll() {
        for (Runnable task : TASKS) {
            task.run();
        }
    }
}
