// Package recall holds TestRecall, the measure of every level's soundness against
// methods real programs execute (recorded by internal/jvmrecord). It is a package of
// its own so that its recordings and analyses of real applications run beside the
// analysis package's tests, each within go test's time limit.
package recall
