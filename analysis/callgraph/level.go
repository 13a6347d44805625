// Package callgraph is the shared model of jcg-lsp's call graphs: nodes are methods,
// edges carry the reason they exist, and dynamic sites carry a resolution status.
//
// A call graph is SOUND under a set of assumptions when every call that can happen in
// an execution satisfying those assumptions is an edge; it is PRECISE when few edges
// are spurious. jcg-lsp computes class-hierarchy (CHA, Dean, Grove and Chambers,
// ECOOP'95) and rapid-type (RTA, Bacon and Sweeney, OOPSLA'96) graphs whose treatment
// of Java's dynamic features is governed by an explicit assumption level (Sawin and
// Rountev, SCAM'11). Each level adds assumptions to the one before, so the graph at a
// level is always a subgraph of the graph at the level before it:
//
//  1. Behaved-CLs: class loaders never change the meaning of a class name. Every
//     dynamic feature falls back to the fully conservative set of targets.
//  2. Encap-Respect: reflection and native code obey Java's access rules.
//  3. Correct-Cast: a cast of a reflectively created object never fails.
//  4. Correct-String: strings reaching dynamic sites through private state are not
//     forged, and every name a loading site receives is a class of the program.
//  5. Correct-Env: the environment at analysis time is the environment at run time.
//  6. Correct-JDK: the JDK behaves as its Java code, its specification and its
//     configuration say, and its native methods do only what jcg-lsp's model of them
//     (package jdkmodel) says. Beyond the published hierarchy; its soundness is an
//     empirical claim, checked against methods recorded while real programs run.
package callgraph

import (
	"fmt"
	"strconv"
	"strings"
)

// Level is an assumption level, 1 (Behaved-CLs) to 6 (Correct-JDK); 0 is no level
// (an option left unset, a site without a fallback).
//
// Code outside this file asks a level the questions below, never compares it as a
// number: what a level licenses is read where it is asked, and a level can be added
// or split without renumbering anything (settings and the graph cache name levels
// by String, never by number). TestLevelQuestions (internal/layers) keeps it so.
type Level uint8

// The assumption levels.
const (
	BehavedCLs Level = 1 + iota
	EncapRespect
	CorrectCast
	CorrectString
	CorrectEnv
	CorrectJDK
)

// Levels lists every level from the least to the most assuming.
var Levels = []Level{BehavedCLs, EncapRespect, CorrectCast, CorrectString, CorrectEnv, CorrectJDK}

// MaxLevel is the most assuming level.
const MaxLevel = CorrectJDK

var levelNames = [...]string{"", "behaved-cls", "encap-respect", "correct-cast", "correct-string", "correct-env", "correct-jdk"}
var levelTitles = [...]string{"", "Behaved-CLs", "Encap-Respect", "Correct-Cast", "Correct-String", "Correct-Env", "Correct-JDK"}

// Valid reports whether l is one of the levels.
func (l Level) Valid() bool { return l >= BehavedCLs && l <= MaxLevel }

// RespectsEncapsulation reports whether reflection, method handles, Unsafe and
// native code obey Java's access rules (Encap-Respect): from a class they reach only
// what it may access, so their conservative sets hold public members and the
// caller's encapsulation-safe ones, not every member.
func (l Level) RespectsEncapsulation() bool { return l >= EncapRespect }

// TrustsCasts reports whether a cast applied to a reflectively created object never
// fails (Correct-Cast): the cast's types bound what reflection creates, loads and
// invokes there. It is the first assumption the value analyses (package values)
// rest on: below it they do not run.
func (l Level) TrustsCasts() bool { return l >= CorrectCast }

// TrustsPrivateState reports whether reflection leaves alone the private state
// values reach dynamic sites through (Correct-String): private or final fields and
// the parameters of non-public methods hold only what the program's own code puts
// there, so value analyses follow them to the writes and callers that can reach
// them.
func (l Level) TrustsPrivateState() bool { return l >= CorrectString }

// TrustsStrings reports whether strings reaching dynamic sites are not forged and
// every name a loading site receives is a class of the program (Correct-String): a
// site's string values (class and method names) bound its targets, names that are
// no class are dropped, and a site whose values all come from sources the level
// licenses is resolvable.
func (l Level) TrustsStrings() bool { return l >= CorrectString }

// UsesAnalysedEnvironment reports whether the system properties and environment
// variables at run time are those configured for the analysis (Correct-Env): the
// string analysis reads them, and the graph is sound only for that environment.
func (l Level) UsesAnalysedEnvironment() bool { return l >= CorrectEnv }

// ModelsJDK reports whether the JDK does only what its code, specification and
// configuration say, and its native methods only what jcg-lsp's model of them
// (package jdkmodel) says (Correct-JDK): the NativeMethod node is the JVM, with the
// model's upcalls, and a JDK native's call edges are its model entry's.
func (l Level) ModelsJDK() bool { return l >= CorrectJDK }

// ModelsContainers reports whether the dependency-injection containers jcg-lsp
// knows (Sisu, Spring's SpringFactoriesLoader) create only what their code and
// their class-path index files say (Correct-JDK extends "the JDK behaves as its
// code, specification and configuration say" to them): a container's reflective
// site whose classes come from its index files (or from its scan of the class
// space) resolves to those classes, the files named as evidence.
func (l Level) ModelsContainers() bool { return l >= CorrectJDK }

// FallbackLevel is the level whose conservative sets a site uses where l's
// assumptions do not resolve it: levels above Encap-Respect add no conservative
// sets of their own (what their assumptions cannot resolve keeps Encap-Respect's
// treatment), so they fall back to it.
func (l Level) FallbackLevel() Level { return min(l, EncapRespect) }

// Weaker returns the level with the fewest assumptions fewer than l: the one just
// below it (0 below Behaved-CLs). A level's graph is a subgraph of every weaker
// level's graph over the same program, which is what lets a tool ask the levels
// below one in turn where a method starts to be reached.
func (l Level) Weaker() Level {
	if l <= BehavedCLs {
		return 0
	}
	return l - 1
}

// AssumesLessThan reports whether l makes fewer assumptions than m (every valid
// level assumes more than no level, 0).
func (l Level) AssumesLessThan(m Level) bool { return l < m }

// Midway returns a level strictly between lo and hi (lo may be 0), the one nearest
// the middle: for a bisection over the levels. It returns 0 when none is between.
func Midway(lo, hi Level) Level {
	if hi <= lo+1 {
		return 0
	}
	return (lo + hi) / 2
}

// Number is the level's place in the order, 1 to 6, for people (hovers, the JSON
// export's fallbackLevel). Nothing stores it: levels are named by String.
func (l Level) Number() int { return int(l) }

// String returns the flag name of the level ("encap-respect"): the name settings,
// the graph cache and status messages use.
func (l Level) String() string {
	if l.Valid() {
		return levelNames[l]
	}
	return "level(" + strconv.Itoa(int(l)) + ")"
}

// Title returns the name used in tables and hovers ("Encap-Respect").
func (l Level) Title() string {
	if l.Valid() {
		return levelTitles[l]
	}
	return l.String()
}

// ParseLevel accepts a level's name or its title, in any case. Settings and files
// name levels so: a number would change meaning when a level is added.
func ParseLevel(s string) (Level, error) {
	t := strings.TrimSpace(s)
	for _, l := range Levels {
		if strings.EqualFold(t, levelNames[l]) || strings.EqualFold(t, levelTitles[l]) {
			return l, nil
		}
	}
	if n, err := strconv.Atoi(t); err == nil && n >= int(BehavedCLs) && n <= int(MaxLevel) {
		return 0, fmt.Errorf("assumption level %q: name the level (one of %s), not its number: numbers change when levels are added", s, LevelChoices())
	}
	return 0, fmt.Errorf("unknown assumption level %q (want one of %s)", s, LevelChoices())
}

// LevelChoices lists the levels' names for messages: "behaved-cls, ..., correct-jdk".
func LevelChoices() string { return strings.Join(levelNames[1:], ", ") }

// levelNamed returns the level whose String is exactly s: the encoded form, which
// decodes to the level that encodes to the same bytes.
func levelNamed(s string) (Level, bool) {
	for _, l := range Levels {
		if s == levelNames[l] {
			return l, true
		}
	}
	return 0, false
}

// ParseLevelOrNumber is ParseLevel that also accepts a level's number (1-6), for
// command lines, where a number is typed and used at once.
func ParseLevelOrNumber(s string) (Level, error) {
	t := strings.TrimSpace(s)
	if n, err := strconv.Atoi(t); err == nil {
		if n >= int(BehavedCLs) && n <= int(MaxLevel) {
			return Level(n), nil
		}
		return 0, fmt.Errorf("unknown assumption level %q (want 1-%d or one of %s)", s, MaxLevel, LevelChoices())
	}
	if l, err := ParseLevel(t); err == nil {
		return l, nil
	}
	return 0, fmt.Errorf("unknown assumption level %q (want 1-%d or one of %s)", s, MaxLevel, LevelChoices())
}

// MarshalText names the level (String), so that every text or JSON form of a level
// is its name; no level is "".
func (l Level) MarshalText() ([]byte, error) {
	switch {
	case l == 0:
		return nil, nil
	case !l.Valid():
		return nil, fmt.Errorf("invalid assumption level %d", uint8(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText reads a level's name or title (ParseLevel); "" is no level.
func (l *Level) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*l = 0
		return nil
	}
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}
