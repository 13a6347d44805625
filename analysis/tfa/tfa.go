// Package tfa is type flow analysis (Zhuo and Zhang, "A relational static semantics
// for call graph construction"): a set of classes per value of the program, with no
// abstraction of the heap beyond one set per field (the paper keeps one per class
// and field) and one for the elements of all reference arrays. Values are a method's parameters and return, each instruction's
// result and each operand where definitions meet, from the def-use facts of
// index/facts. Classes flow from allocations along def-use, calls (argument to
// parameter, position by position; return to the call's result), field writes and
// reads, array stores and loads, and through casts, which let only their type
// pass. A virtual call reaches only the classes its receiver's set holds, and the
// sets grow as calls are resolved on the fly.
//
// As in the paper, library code is summarised: the JDK's methods are not followed,
// their values are any object of their declared types.
//
// The propagation, and the rules for what bytecode does not show (natives, the
// JVM's own objects, Unsafe, reflection's way of passing arguments), are package
// typeflow's, shared with XTA: TFA's sets are those of XTA split per value.
package tfa

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/typeflow"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Config is what a run tells the analysis beyond the program; its Flow must give the
// def-use facts of a method with code (a method whose flow it cannot give is
// treated as native code).
type Config = typeflow.Config

// New returns a TFA oracle over h for one run.
func New(h *hierarchy.Hierarchy, cfg Config) algo.Follower {
	return typeflow.New(h, cfg)
}
