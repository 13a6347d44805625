// Package xta is separate type analysis (Tip and Palsberg, "Scalable propagation-based
// call graph construction algorithms", OOPSLA 2000): one set of classes per method
// and one per field, where RTA has one for the whole program. A class enters a
// method's set where the method creates an instance, and flows along the call graph
// (a caller's set into its callees' parameters, filtered by their declared types,
// and a callee's set back as its return), through fields (a write puts the writer's
// set into the field's, a read the field's into the reader's) and through one set
// for the elements of all reference arrays. A virtual call then reaches only the
// classes in the caller's own set.
//
// The JDK's methods are summarised as TFA's are: their sets are any object of
// their declared types.
//
// The propagation, and the rules for what bytecode does not show (natives, the
// JVM's own objects, Unsafe), are package typeflow's, shared with TFA.
package xta

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/typeflow"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Config is what a run tells the analysis beyond the program.
type Config struct {
	// Encap says whether the run's assumption level has reflection and native
	// code obey access rules (callgraph.Level.RespectsEncapsulation).
	Encap bool
	// TopSize is the size past which a set widens to every class created anywhere;
	// 0 means typeflow.DefaultTopSize.
	TopSize int
	// Members gives the current members of the solver's target sets (see
	// typeflow.Config).
	Members func(set int32) []int32
	// Summarised names the methods whose code the sets do not follow (see
	// typeflow.Config).
	Summarised func(*hierarchy.Method) bool
}

// New returns an XTA oracle over h for one run.
func New(h *hierarchy.Hierarchy, cfg Config) algo.Follower {
	return typeflow.New(h, typeflow.Config{Encap: cfg.Encap, TopSize: cfg.TopSize, Members: cfg.Members, Summarised: cfg.Summarised})
}
