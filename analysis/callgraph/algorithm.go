package callgraph

import (
	"fmt"
	"strconv"
	"strings"
)

// Algorithm is a call-graph algorithm: what bounds the classes a value may have, and
// so the targets of a virtual call. It has one spelling, its String ("CHA"), in
// graphs, exports, messages and settings alike; ParseAlgorithm reads any case. 0 is
// no algorithm (an option left unset).
type Algorithm uint8

// The algorithms, from the least to the most precise.
const (
	CHA Algorithm = 1 + iota // class-hierarchy analysis: the declared type's subtypes
	RTA                      // rapid type analysis: the classes the program instantiates
	XTA                      // separate type analysis: the classes reaching the method (a set per method and field)
	TFA                      // type flow analysis: the classes reaching the value (a set per value)
)

// Algorithms lists the algorithms from the least to the most precise.
var Algorithms = []Algorithm{CHA, RTA, XTA, TFA}

var algorithmNames = [...]string{"", "CHA", "RTA", "XTA", "TFA"}

// Valid reports whether a is one of the algorithms.
func (a Algorithm) Valid() bool { return a >= CHA && a <= TFA }

// String returns the algorithm's name ("CHA").
func (a Algorithm) String() string {
	if a.Valid() {
		return algorithmNames[a]
	}
	return "algorithm(" + strconv.Itoa(int(a)) + ")"
}

// DispatchesByHierarchy reports whether a virtual call reaches every method the
// subtypes of its receiver's declared type select, whatever the program creates
// (CHA): the dispatch results are the same in every run over a program, so they
// can be computed for all runs up front, and a finer algorithm's graph leaves out
// some of them, which the call hierarchy counts.
func (a Algorithm) DispatchesByHierarchy() bool { return a == CHA }

// UpdatesInPlace reports whether an edit of method bodies can update a graph of the
// algorithm in place (analysis.Analyzer.Update) rather than analyse anew. Only
// CHA's graphs can: its answers do not depend on what the program creates, while
// the sets of the others only grow, and an edit's removed code would have to
// shrink them (ARCHITECTURE.md says how TFA's could be updated).
func (a Algorithm) UpdatesInPlace() bool { return a == CHA }

// Companion is the algorithm of the graph that stands in for a's during an edit:
// a itself when its graphs update in place, else CHA, whose graph of the same level
// is kept beside a's, updated in place on an edit, and its diagnostics (a sound
// superset of the coming graph's) published while a's graph is analysed anew.
func (a Algorithm) Companion() Algorithm {
	if a.UpdatesInPlace() {
		return a
	}
	return CHA
}

// ParseAlgorithm reads an algorithm's name in any case ("tfa", "TFA").
func ParseAlgorithm(s string) (Algorithm, error) {
	t := strings.TrimSpace(s)
	for _, a := range Algorithms {
		if strings.EqualFold(t, algorithmNames[a]) {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown algorithm %q (want one of %s)", s, AlgorithmChoices())
}

// algorithmNamed returns the algorithm whose String is exactly s, no algorithm for
// "" (the encoded form).
func algorithmNamed(s string) (Algorithm, bool) {
	for a, name := range algorithmNames {
		if s == name {
			return Algorithm(a), true
		}
	}
	return 0, false
}

// AlgorithmChoices lists the algorithms' names for messages: "CHA, RTA, XTA, TFA".
func AlgorithmChoices() string { return strings.Join(algorithmNames[1:], ", ") }

// MarshalText names the algorithm (String); no algorithm is "".
func (a Algorithm) MarshalText() ([]byte, error) {
	switch {
	case a == 0:
		return nil, nil
	case !a.Valid():
		return nil, fmt.Errorf("invalid algorithm %d", uint8(a))
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads an algorithm's name in any case; "" is no algorithm.
func (a *Algorithm) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*a = 0
		return nil
	}
	v, err := ParseAlgorithm(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}
