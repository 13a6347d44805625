/*
 * Calls the JVM makes on the program's behalf:
 *
 * - Thread.start runs run() of the started thread on a new thread (through native
 *   code): for a Thread subclass that overrides run, the start call reaches it; for
 *   a plain Thread given a Runnable (a class or a lambda), Thread.run calls the
 *   Runnable's run. When run returns the JVM calls Thread.exit on the thread (and
 *   dispatchUncaughtException first when run threw).
 * - AccessController.doPrivileged(action) calls action.run() (a PrivilegedAction
 *   or PrivilegedExceptionAction, a class or a lambda).
 * - A ThreadFactory makes the threads of an executor, which starts them: each runs
 *   the executor's worker loop, which runs the submitted tasks (pooled).
 * - Allocating an object of a class that overrides Object.finalize lets the
 *   garbage collector's finalizer thread call it: the `new` has an edge to the
 *   finalize method the class selects (its own or an inherited override), and none
 *   when it selects Object.finalize.
 */
package threads;

import java.security.AccessController;
import java.security.PrivilegedAction;
import java.security.PrivilegedExceptionAction;

public class Main {
    static int count;

    public static void main(String[] args) throws Exception {
        Worker w = new Worker();
        w.start(); // @calls(java.lang.Thread.start, threads.Worker.run, java.lang.Thread.exit, java.lang.Thread.dispatchUncaughtException) @!calls(threads.Task.run)
        Thread t = new Thread(new Task());
        t.start(); // @calls(java.lang.Thread.start, java.lang.Thread.run) @!calls(threads.Task.run)
        // @edge(java.lang.Thread.run, threads.Task.run)
        Thread l = new Thread(() -> count++);
        l.start(); // @calls(java.lang.Thread.run)
        // @edge(java.lang.Thread.run, threads.Main.lambda$main$0)
        t.join();
        l.join();
        w.join();


        String s = AccessController.doPrivileged(new ReadAction()); // @calls(java.security.AccessController.doPrivileged, threads.ReadAction.run()Ljava/lang/Object;)
        // @edge(threads.ReadAction.run()Ljava/lang/Object;, threads.ReadAction.run()Ljava/lang/String;)
        Integer n = AccessController.doPrivileged((PrivilegedAction<Integer>) () -> 42); // @calls(threads.Main.lambda$main$1)
        Object o = AccessController.doPrivileged((PrivilegedExceptionAction<Object>) () -> secret()); // @calls(threads.Main.lambda$main$2, threads.Main.secret)
        count += s.length() + n + o.hashCode();

        java.util.concurrent.ExecutorService ex = java.util.concurrent.Executors.newSingleThreadExecutor(r -> new Thread(r, "pool"));
        ex.submit(Main::pooled).get();
        ex.shutdown();

        new Resource(); // @calls(threads.Resource.finalize, threads.Resource.<init>)
        new SubResource(); // @calls(threads.Resource.finalize) (inherited)
        new Plain(); // @callees(threads.Plain.<init>) @!calls(java.lang.Object.finalize)
        new Refinalized(); // @calls(threads.Refinalized.finalize) @!calls(threads.Resource.finalize)
    }

    private static Object secret() { // @reachable
        return "secret";
    }

    private static void pooled() { // @reachable
        count++;
    }
}

class Worker extends Thread {
    Worker() {
    }

    @Override
    public void run() { // @reachable
        Main.count++;
    }
}

class Task implements Runnable {
    Task() {
    }

    @Override
    public void run() { // @reachable
        Main.count++;
    }
}

class ReadAction implements PrivilegedAction<String> {
    ReadAction() {
    }

    @Override
    public String run() {
        return "read";
    }
}

class Resource {
    Resource() {
    }

    @Override
    protected void finalize() { // @reachable
        Main.count--;
    }
}

class SubResource extends Resource {
    SubResource() {
    }
}

class Refinalized extends Resource {
    Refinalized() {
    }

    @Override
    protected void finalize() {
        super.finalize(); // @callees(threads.Resource.finalize)
    }
}

class Plain {
    Plain() {
    }
}

// Never allocated: under RTA at level 2 nothing can call its finalize (it is not
// public, so native code cannot either). Under CHA, the JDK's finalizer calls
// Object.finalize on an Object, which CHA dispatches to every override.
class NeverAllocated {
    NeverAllocated() {
    }

    @Override
    protected void finalize() { // @reachable[cha] @reachable[level=1] @!reachable[rta,level>=2]
    }
}
