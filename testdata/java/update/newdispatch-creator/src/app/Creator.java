package app;

// Over variant newdispatch: create stores a constructor reference (no new member, so
// only create's body changes) in Work.maker, so that Work.run's maker.make(), which
// had no targets, now reaches Other.<init>. Work is not visited again.
public class Creator {
    static void create() {
        Main.hold = () -> Creator.create();
        Work.maker = Other::new;
    }
}
