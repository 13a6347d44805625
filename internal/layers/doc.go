// Package layers holds no code: its test checks that the module's packages import
// one another only along the arrows of ARCHITECTURE.md (server → incremental →
// analysis → index), that only the server speaks the protocol, and that the
// analysis does no IO of its own.
package layers
