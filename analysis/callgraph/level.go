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

// Level is an assumption level, 1 (Behaved-CLs) to 6 (Correct-JDK).
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

// String returns the flag name of the level ("encap-respect").
func (l Level) String() string {
	if l >= BehavedCLs && l <= MaxLevel {
		return levelNames[l]
	}
	return "level(" + strconv.Itoa(int(l)) + ")"
}

// Title returns the name used in tables and hovers ("Encap-Respect").
func (l Level) Title() string {
	if l >= BehavedCLs && l <= MaxLevel {
		return levelTitles[l]
	}
	return l.String()
}

// ParseLevel accepts a level's flag name, its title or its number.
func ParseLevel(s string) (Level, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for l := BehavedCLs; l <= MaxLevel; l++ {
		if t == levelNames[l] || t == strings.ToLower(levelTitles[l]) || t == strconv.Itoa(int(l)) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown assumption level %q (want 1-%d or one of %s)", s, MaxLevel, strings.Join(levelNames[1:], ", "))
}
