/*
 * Virtual and interface dispatch under CHA and RTA.
 *
 * CHA (Dean, Grove and Chambers) dispatches a call on every concrete subtype of the
 * receiver's declared type; RTA (Bacon and Sweeney) only on those that reachable
 * code instantiates. Ghost and Silent are never instantiated by the program and have
 * package-private constructors, so at level 2 nothing instantiates them and RTA drops
 * them. At level 1 native code may call any constructor (assumption-levels.md), so
 * every class counts as instantiated and RTA equals CHA: the RTA-only negatives are
 * qualified with level>=2.
 *
 * Files: Shapes.java (an abstract class and its subclasses), Greeters.java
 * (interface dispatch, an implementation inherited from a superclass that does not
 * implement the interface), other/Hidden.java (a package-private method that a
 * subclass in another package does not override, JVMS 5.4.5).
 */
package virt;

import virt.other.Hidden;
import virt.other.HiddenCaller;

public class Main {
    public static void main(String[] args) {
        Shape s = args.length > 0 ? new Circle() : new Square();
        // area is abstract in Shape: the targets are the overrides, never Shape.area.
        s.area(); // @callees[cha](virt.Circle.area, virt.Square.area, virt.Ghost.area) @callees[rta,level=1](virt.Circle.area, virt.Square.area, virt.Ghost.area) @callees[rta,level>=2](virt.Circle.area, virt.Square.area)
        // name is inherited by Circle and Ghost, overridden by Square.
        s.name(); // @callees[cha](virt.Shape.name, virt.Square.name) @callees[rta](virt.Shape.name, virt.Square.name)
        Circle c = new Circle();
        c.area(); // @callees(virt.Circle.area) the declared type bounds the targets
        c.name(); // @callees(virt.Shape.name) Circle inherits name; Square's override is not a subtype's
        Square q = new Square();
        q.name(); // @callees(virt.Square.name) @!calls(virt.Shape.name)
        s.label(); // @callees(virt.Shape.label) final: one target
        s.describe(); // @callees(virt.Shape.describe)

        Greeter g = pick(args.length);
        g.greet(); // @calls(virt.English.greet, virt.French.greet, virt.Base.greet) @calls[cha](virt.Silent.greet) @calls[rta,level=1](virt.Silent.greet) @!calls[rta,level>=2](virt.Silent.greet) @!calls(virt.Greeter.greet)
        g.polite(); // @callees[cha](virt.Greeter.polite, virt.French.polite) @callees[rta](virt.Greeter.polite, virt.French.polite)

        Hidden h = args.length > 1 ? new Hidden() : new HiddenSub();
        HiddenCaller.call(h); // @callees(virt.other.HiddenCaller.call)
        new HiddenSub().open(); // @callees(virt.HiddenSub.<init>, virt.HiddenSub.open)
    }

    static Greeter pick(int n) {
        switch (n) {
            case 0:
                return new English();
            case 1:
                return new French();
            default:
                return new Inheriting();
        }
    }
}
