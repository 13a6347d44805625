package ide

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// maxPropertyKeys bounds the properties a site's quick fixes offer values for.
const maxPropertyKeys = 2

// envDecided reports whether a specification point's kind is a read of the
// environment whose value Correct-Env would take but something makes unknown
// (reachable code may set it, the JVM sets it): a value in jcg.env decides it.
func envDecided(kind string) bool {
	return readPoint.MatchString(kind) && strings.Contains(kind, ", which ")
}

// readPoint matches the kind of a specification point where the value of a system
// property, a security property or an environment variable enters a site's flow
// (values.envKey names them so: `System.getProperty("demo.plugin")`, with what makes
// it unknown after).
var readPoint = regexp.MustCompile(`^(System\.getProperty|Security\.getProperty|System\.getenv)\("([^"]+)"\)`)

// environmentKeys returns the keys of the analysed environment (Settings' env) that
// decide a site at Correct-Env and above: those its resolution took as unset, and
// those whose unknown value reaches it. A security property is configured under its
// own name, an environment variable as "env.NAME".
func environmentKeys(level callgraph.Level, site *callgraph.Site) []string {
	if !level.UsesAnalysedEnvironment() {
		return nil
	}
	var keys []string
	add := func(k string) {
		if !slices.Contains(keys, k) && len(keys) < maxPropertyKeys {
			keys = append(keys, k)
		}
	}
	for _, k := range site.Unset {
		add(strings.TrimPrefix(k, values.SecurityKey))
	}
	for _, p := range site.Points {
		if m := readPoint.FindStringSubmatch(p.Kind); m != nil {
			if m[1] == "System.getenv" {
				add("env." + m[2])
			} else {
				add(m[2])
			}
		}
	}
	return keys
}

// unsetOnly reports whether a site is resolved because properties it reads are unset
// in the analysed environment: a run that sets one may reach more than the graph has.
func unsetOnly(site *callgraph.Site) bool {
	return site.Status == callgraph.Resolved && len(site.Unset) > 0
}

// propertyFixes returns the quick fixes that analyse again with a key of the
// environment that decides a site set to a class the site could load or create:
// one per candidate class of the program, when there are few.
func propertyFixes(snap *Snapshot, site *callgraph.Site) []Fix {
	if site.Feature != callgraph.FeatLoading && site.Feature != callgraph.FeatInstantiation {
		return nil // a property names a class; methods are named otherwise
	}
	keys := environmentKeys(snap.Options.Level, site)
	if len(keys) == 0 {
		return nil
	}
	classes := programClasses(snap)
	if !unsetOnly(site) {
		classes = nil
		for _, t := range specCandidates(snap, site) {
			if !slices.Contains(classes, t.Class) {
				classes = append(classes, t.Class)
			}
		}
	}
	if len(classes) == 0 || len(classes) > maxSingleCandidates {
		return nil
	}
	var out []Fix
	for _, k := range keys {
		for _, c := range classes {
			out = append(out, Fix{
				Title:    fmt.Sprintf("Analyse with %s=%s (jcg.env)", k, c),
				Property: &PropertyFix{Key: k, Value: c},
			})
		}
	}
	return out
}

// programClasses returns the names of the application's and libraries' classes, or
// nil when there are more than a quick fix list can offer.
func programClasses(snap *Snapshot) []string {
	var out []string
	for _, c := range snap.Hierarchy().Classes() {
		if c.Phantom || c.Origin == hierarchy.JDK {
			continue
		}
		if len(out) == maxSingleCandidates {
			return nil
		}
		out = append(out, javaName(c.Name))
	}
	slices.Sort(out)
	return out
}

// unsetMessage is the message of a site resolved because properties it reads are
// unset in the analysed environment.
func unsetMessage(snap *Snapshot, site *callgraph.Site) string {
	known, _ := siteSets(snap.Graph, site)
	what := "has no targets"
	switch n := countTargets(snap.Graph, known); {
	case n == 1:
		what = "has 1 target"
	case n > 1:
		what = fmt.Sprintf("has %d targets", n)
	}
	var keys []string
	for _, k := range site.Unset {
		keys = append(keys, strings.TrimPrefix(k, values.SecurityKey))
	}
	are, it := "is", "it"
	if len(keys) > 1 {
		are, it = "are", "one"
	}
	return fmt.Sprintf("%s: %s %s unset in the analysed environment, so at %s this site %s; a run that sets %s may reach more (set it in jcg.env to analyse such a run)",
		javaName(site.API), strings.Join(keys, ", "), are, snap.Options.Level.Title(), what, it)
}
