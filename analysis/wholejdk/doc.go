// Package wholejdk holds tests that analyse programs with the whole JDK through the
// analysis package's API only: site reports, class files with bootstrap methods and
// constants of their own, and Debian's real applications (TestRealJars, with the
// subgraph checks of internal/graphcheck). They run in a test binary of their own, which keeps
// the analysis package's tests well under Go's per-binary timeout.
package wholejdk
