/*
 * Uses of System.getProperties() that Correct-Env's property writers
 * (analysis/resolve_env.go, propertiesWrites) must tell apart. Each method below
 * takes the system properties once. Those named reads* only read them (or remove a
 * key, which leaves it unset): no key is written. Those named puts* put the keys
 * the table in TestPropertiesWrites lists, with literal keys. Those named every*
 * may write any key: a key the analysis does not know, the object stored, handed
 * to code it does not follow, or returned where it cannot follow.
 *
 * The object is followed through casts, into static and private helpers (whatever
 * their names: a static getProperty(Properties, String) is not Properties'), back
 * to the callers of a private method that returns it, and out of a lambda whose
 * only capture is handed to AccessController.doPrivileged (JNDI's
 * VersionHelper.getJndiProperties idiom), or out of an anonymous action class whose
 * only instances are (GetPropertyAction.privilegedGetProperties).
 *
 * Run: java -cp <classes> pw.Main  prints OK.
 */
package pw;

import java.security.AccessController;
import java.security.PrivilegedAction;
import java.util.Map;
import java.util.Properties;

public class Main {
    static Properties kept;
    static PrivilegedAction<Properties> action;

    public static void main(String[] args) {
        readsDirectly();
        readsSynchronized();
        readsThroughHelper();
        readsThroughReturn();
        readsThroughLambda();
        readsThroughAnonymousAction();
        putsLiteral();
        putsThroughHelper();
        putsThroughCast();
        everyUnknownKey(args.length > 0 ? args[0] : "pw.k");
        everyStored();
        everyThroughHelperNamedGetProperty();
        everyThroughCast(args.length > 0 ? args[0] : "pw.k");
        everyLambdaKept();
        everyAnonymousActionKept();
        readsThroughPublicReturn();
        securityWrites(args.length > 0 ? args[0] : "pw.k");
        System.out.println("OK");
    }

    static void readsDirectly() {
        Properties p = System.getProperties();
        p.getProperty("java.home");
        p.remove("pw.gone");
    }

    // Locking the object writes nothing (jdk.internal.agent.Agent's idiom).
    static void readsSynchronized() {
        Properties p = System.getProperties();
        synchronized (p) {
            p.getProperty("java.home");
        }
    }

    static void readsThroughHelper() {
        Properties p = System.getProperties();
        get(p, "java.home");
    }

    private static String get(Properties p, String k) {
        return p.getProperty(k);
    }

    static void readsThroughReturn() {
        fetch().getProperty("user.dir");
    }

    private static Properties fetch() {
        return System.getProperties();
    }

    static void readsThroughLambda() {
        Properties p = AccessController.doPrivileged((PrivilegedAction<Properties>) () -> System.getProperties());
        p.getProperty("java.naming.factory.initial");
    }

    // Main$1 (javac numbers anonymous classes in source order): its one instance
    // goes straight to doPrivileged, whose result is read.
    static void readsThroughAnonymousAction() {
        Properties p = AccessController.doPrivileged(new PrivilegedAction<Properties>() {
            public Properties run() {
                return System.getProperties();
            }
        });
        p.getProperty("user.home");
    }

    static void putsLiteral() {
        System.getProperties().setProperty("pw.one", "1");
    }

    static void putsThroughHelper() {
        set(System.getProperties());
    }

    private static void set(Properties p) {
        p.put("pw.two", "2");
    }

    static void putsThroughCast() {
        Object o = System.getProperties();
        ((Map<Object, Object>) o).put("pw.three", "3");
    }

    static void everyUnknownKey(String k) {
        System.getProperties().setProperty(k, "v");
    }

    static void everyStored() {
        kept = System.getProperties();
    }

    static void everyThroughHelperNamedGetProperty() {
        getProperty(System.getProperties(), "pw.k");
    }

    // A static helper that shares Properties.getProperty's name but writes.
    static String getProperty(Properties p, String k) {
        p.put(k, "v");
        return k;
    }

    static void everyThroughCast(String k) {
        Object o = System.getProperties();
        ((Map<Object, Object>) o).put(k, "v");
    }

    static void everyLambdaKept() {
        action = () -> System.getProperties();
        action.run();
    }

    // Main$2: its instance is kept in a field, where anyone may run it.
    static void everyAnonymousActionKept() {
        action = new PrivilegedAction<Properties>() {
            public Properties run() {
                return System.getProperties();
            }
        };
        AccessController.doPrivileged(action);
    }

    // Public: followed to its callers (main drops the result), and watched: a
    // reflective or method-handle call of it, whose caller may do anything with
    // the result, writes every key.
    public static Properties readsThroughPublicReturn() {
        return System.getProperties();
    }

    // Security properties, a namespace of their own: a literal key, then one the
    // analysis does not know (every security property, no system property).
    static void securityWrites(String k) {
        java.security.Security.setProperty("pw.sec", "v");
        java.security.Security.setProperty(k, "v");
    }
}
