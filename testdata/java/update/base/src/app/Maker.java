package app;

// Nothing uses Maker in the base program: variant newdispatch dispatches on it, and
// newdispatch-creator creates its first lambda (analysis.TestUpdateChain).
public interface Maker {
    Object make();
}
