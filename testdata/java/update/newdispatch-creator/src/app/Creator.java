package app;

// Over variant newdispatch: create stores a method reference (no new member, so only
// create's body changes) in Lib.maker, so that Work.run's Lib.maker.make(), which had
// no targets, now reaches Lib.made, which nothing else reaches. Work is not visited
// again.
public class Creator {
    static void create() {
        Main.hold = () -> Creator.create();
        Lib.maker = Lib::made;
    }
}
