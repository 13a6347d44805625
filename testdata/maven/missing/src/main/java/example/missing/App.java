package example.missing;

import com.google.common.base.Strings;
import org.example.nowhere.Gadget;
import org.example.nowhere.Registry;
import org.example.nowhere.Widget;

/**
 * Refers to three classes of org.example:nowhere, which is on no class path: Widget
 * (allocated and called), Gadget (a cast) and Registry (a static field's owner).
 * Strings comes from Guava, which is there.
 */
public class App {
    public static void main(String[] args) {
        Widget w = new Widget();
        w.spin();
        Object o = args.length > 3 ? w : null;
        Gadget g = (Gadget) o;
        System.out.println(g);
        System.out.println(Registry.count);
        System.out.println(Strings.repeat("-", 3));
    }
}
