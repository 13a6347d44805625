/* The Clock AppModule.clock() provides. */
package inj;

final class FixedClock implements Clock {
    private final long time;

    FixedClock(long time) {
        this.time = time;
    }

    @Override
    public long now() {
        return time;
    }
}
