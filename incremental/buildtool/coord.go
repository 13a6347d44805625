package buildtool

import (
	"cmp"
	"strconv"
	"strings"
)

// Coord names an artifact of a Maven repository.
type Coord struct {
	Group      string `json:"group"`
	Artifact   string `json:"artifact"`
	Version    string `json:"version"`
	Type       string `json:"type,omitempty"` // "" is jar
	Classifier string `json:"classifier,omitempty"`
}

// String is group:artifact:version, with the type and classifier when they are not a
// plain jar's (group:artifact:type:classifier:version).
func (c Coord) String() string {
	if c.Group == "" && c.Version == "" {
		return c.Artifact // a Gradle project (":core")
	}
	if c.Classifier == "" && (c.Type == "" || c.Type == "jar") {
		return c.Group + ":" + c.Artifact + ":" + c.Version
	}
	t := c.Type
	if t == "" {
		t = "jar"
	}
	if c.Classifier == "" {
		return c.Group + ":" + c.Artifact + ":" + t + ":" + c.Version
	}
	return c.Group + ":" + c.Artifact + ":" + t + ":" + c.Classifier + ":" + c.Version
}

// GA is group:artifact.
func (c Coord) GA() string { return c.Group + ":" + c.Artifact }

// key identifies an artifact regardless of its version: what Maven's conflict
// resolution and dependency management match on.
func (c Coord) key() string {
	t := c.Type
	if t == "" {
		t = "jar"
	}
	return c.Group + ":" + c.Artifact + ":" + t + ":" + c.Classifier
}

// extension and classifier of the file of an artifact type (Maven's artifact
// handlers: test-jar is a jar classified tests, bundle an OSGi jar, ...).
func typeFile(typ, classifier string) (ext, cls string) {
	switch typ {
	case "", "jar", "bundle", "maven-plugin", "ejb", "ejb-client", "java-source", "javadoc":
		ext = "jar"
	case "test-jar":
		ext = "jar"
		if classifier == "" {
			classifier = "tests"
		}
	default:
		ext = typ
	}
	if typ == "ejb-client" && classifier == "" {
		classifier = "client"
	}
	return ext, classifier
}

// holdsClasses reports whether an artifact of the type is an archive of classes.
func holdsClasses(typ string) bool {
	ext, _ := typeFile(typ, "")
	return ext == "jar" || ext == "war"
}

// compareVersions orders Maven versions as Maven's ComparableVersion does for the
// versions met in practice: numbers numerically, qualifiers alpha < beta <
// milestone < rc < snapshot < release < sp, other qualifiers after sp
// alphabetically, a missing part as 0 or release.
func compareVersions(a, b string) int {
	pa, pb := versionItems(a), versionItems(b)
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y vitem
		if i < len(pa) {
			x = pa[i]
		} else {
			x = vitem{num: true}
		}
		if i < len(pb) {
			y = pb[i]
		} else {
			y = vitem{num: true}
		}
		if c := x.compare(y); c != 0 {
			return c
		}
	}
	return 0
}

type vitem struct {
	num bool
	n   int64
	s   string
}

func (x vitem) compare(y vitem) int {
	switch {
	case x.num && y.num:
		return cmp.Compare(x.n, y.n)
	case x.num:
		// A number beats a qualifier, except that 1.0 == 1 and 1-ga == 1: a zero
		// against a release qualifier is equal, and against a pre-release greater.
		if x.n == 0 {
			return cmp.Compare(0, qualifierRank(y.s))
		}
		return 1
	case y.num:
		return -y.compare(x)
	}
	rx, ry := qualifierRank(x.s), qualifierRank(y.s)
	if rx != ry || rx != 7 {
		return cmp.Compare(rx, ry)
	}
	return cmp.Compare(x.s, y.s)
}

// qualifierRank ranks a qualifier relative to a release (0).
func qualifierRank(q string) int {
	switch q {
	case "alpha", "a":
		return -5
	case "beta", "b":
		return -4
	case "milestone", "m":
		return -3
	case "rc", "cr":
		return -2
	case "snapshot":
		return -1
	case "", "ga", "final", "release":
		return 0
	case "sp":
		return 1
	}
	return 7
}

func versionItems(v string) []vitem {
	var out []vitem
	v = strings.ToLower(v)
	start := 0
	flush := func(end int) {
		if end <= start {
			return
		}
		s := v[start:end]
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			out = append(out, vitem{num: true, n: n})
		} else {
			out = append(out, vitem{s: s})
		}
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '.' || c == '-' || c == '_' {
			flush(i)
			start = i + 1
			continue
		}
		if i > start {
			prev := v[i-1]
			if isDigit(prev) != isDigit(c) {
				flush(i)
				start = i
			}
		}
	}
	flush(len(v))
	// Trailing zeros and release qualifiers do not count: 1.0.0 == 1 == 1-final.
	for len(out) > 0 {
		l := out[len(out)-1]
		if l.num && l.n == 0 || !l.num && qualifierRank(l.s) == 0 {
			out = out[:len(out)-1]
			continue
		}
		break
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// versionRange is a Maven version range such as [1.0,2.0) or [1.5,).
type versionRange struct {
	lo, hi         string
	loIncl, hiIncl bool
}

// parseRange parses a range; ok is false for a plain version. Of a union of ranges
// ([1,2),[3,4)) the last is taken, which holds the newest versions.
func parseRange(s string) (versionRange, bool) {
	s = strings.TrimSpace(s)
	if s == "" || s[0] != '[' && s[0] != '(' {
		return versionRange{}, false
	}
	if i := strings.LastIndexAny(s[:len(s)-1], "[("); i > 0 {
		s = s[i:]
	}
	last := s[len(s)-1]
	if last != ']' && last != ')' {
		return versionRange{}, false
	}
	inner := s[1 : len(s)-1]
	lo, hi, comma := strings.Cut(inner, ",")
	r := versionRange{lo: strings.TrimSpace(lo), hi: strings.TrimSpace(hi), loIncl: s[0] == '[', hiIncl: last == ']'}
	if !comma { // [1.0]: exactly
		r.hi, r.hiIncl = r.lo, true
	}
	return r, true
}

func (r versionRange) contains(v string) bool {
	if r.lo != "" {
		c := compareVersions(v, r.lo)
		if c < 0 || c == 0 && !r.loIncl {
			return false
		}
	}
	if r.hi != "" {
		c := compareVersions(v, r.hi)
		if c > 0 || c == 0 && !r.hiIncl {
			return false
		}
	}
	return true
}
