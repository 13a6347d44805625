package example.missing;

import com.google.common.base.Strings;
import org.example.nowhere.Gadget;
import org.example.nowhere.Registry;
import org.example.nowhere.Widget;

/**
 * Refers to three classes of org.example:nowhere, which is on no class path: Widget
 * (allocated, called, and the superclass of Fancy), Gadget (a cast and a class
 * constant) and Registry (a static field's owner). Strings comes from Guava, which
 * is there.
 */
public class App {
    static final class Fancy extends Widget {
    }

    public static void main(String[] args) {
        Widget w = new Widget();
        w.spin();
        Object o = args.length > 3 ? w : new Fancy();
        Gadget g = (Gadget) o;
        System.out.println(g + " " + Gadget.class);
        System.out.println(Registry.count);
        System.out.println(Strings.repeat("-", 3));
    }
}
