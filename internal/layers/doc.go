// Package layers holds no code: its tests check that the module's packages import
// one another only along the arrows of ARCHITECTURE.md (server → ide → incremental →
// analysis → index, the server reading no index package itself), that only the
// server speaks the protocol, that the analysis does no IO of its own, and that no
// code outside analysis/callgraph/level.go compares assumption levels as numbers
// (it asks callgraph.Level's questions instead).
package layers
