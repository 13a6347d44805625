// Package layers holds no code: its test checks that the module's packages import
// one another only along the arrows of ARCHITECTURE.md (server → ide → incremental →
// analysis → index, the server reading no index package itself), that only the
// server speaks the protocol, and that the analysis does no IO of its own.
package layers
