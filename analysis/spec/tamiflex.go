package spec

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// ImportTamiFlex turns a TamiFlex refl.log (lines "Kind;Target;CallerMethod;Line;...")
// into specification entries, one per (caller, line) with the observed targets
// merged. Lines without a source line (-1: no debug information) cannot name a site
// robustly and are reported. The result is sorted like a specification file. A read
// error is the last problem, at line 0: the entries before it are still worth having.
func ImportTamiFlex(name string, r io.Reader) ([]Entry, []Problem) {
	es, probs, err := ReadTamiFlex(name, r)
	if err != nil {
		probs = append(probs, Problem{File: name, Line: 0, Col: 0, Msg: err.Error()})
	}
	return es, probs
}

// ReadTamiFlex is ImportTamiFlex for callers that must not mistake an unreadable
// log (a directory, an IO error) for a short one: the read error is returned.
// Lines may be of any length: a class name built at run time can be megabytes, and a
// line-length limit would lose that line and, silently, every line after it.
func ReadTamiFlex(name string, r io.Reader) ([]Entry, []Problem, error) {
	type key struct {
		caller string
		line   int
	}
	byKey := map[key]*Entry{}
	var order []key
	var probs []Problem
	br := bufio.NewReader(r)
	var readErr error
	for n := 1; readErr == nil; n++ {
		raw, err := br.ReadString('\n')
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = fmt.Errorf("reading %s at line %d: %w", name, n, err)
				break
			}
			readErr = err
			if raw == "" {
				break
			}
		}
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		parts := strings.Split(line, ";")
		if len(parts) < 4 {
			probs = append(probs, Problem{File: name, Line: n, Col: 1, Msg: "want Kind;Target;CallerMethod;Line;..."})
			continue
		}
		kind, target, caller := parts[0], parts[1], parts[2]
		ln, err := strconv.Atoi(parts[3])
		if err != nil {
			probs = append(probs, Problem{File: name, Line: n, Col: len(kind) + len(target) + len(caller) + 4, Msg: fmt.Sprintf("bad line number %q", parts[3])})
			continue
		}
		if ln <= 0 {
			probs = append(probs, Problem{File: name, Line: n, Col: 1, Msg: "no source line for " + caller + " (compile with -g): entry skipped"})
			continue
		}
		t, known, msg := tamiTarget(kind, target)
		if !known {
			continue // Field and Array entries, getDeclaredMethods, ...: no call edge
		}
		if msg != "" {
			probs = append(probs, Problem{File: name, Line: n, Col: len(kind) + 2, Msg: msg + ": entry skipped"})
			continue
		}
		if t == nil {
			continue // an array class: loading it runs no code of its own
		}
		cls, meth, _, err := splitMember(caller)
		if err != nil {
			probs = append(probs, Problem{File: name, Line: n, Col: len(kind) + len(target) + 3, Msg: err.Error()})
			continue
		}
		k := key{caller, ln}
		e := byKey[k]
		if e == nil {
			e = &Entry{Site: Site{Class: cls, Method: meth, Line: ln, PC: -1}}
			byKey[k] = e
			order = append(order, k)
		}
		if !containsTarget(e.Targets, *t) {
			e.Targets = append(e.Targets, *t)
		}
	}
	if errors.Is(readErr, io.EOF) {
		readErr = nil
	}
	out := make([]Entry, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return Compare(a.Site, b.Site) })
	return out, probs, readErr
}

func containsTarget(ts []Target, t Target) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// tamiTarget converts the target column: a class name for loading and
// Class.newInstance, a Soot signature "<pkg.C: void m(int)>" for Method.invoke and
// Constructor.newInstance. known is false for kinds that make no call edge (field
// access, arrays, member look-ups); for the others a target that cannot be read, or
// that would not read back as the same target from a specification file, is a
// message rather than a silently lost observation. A nil target without a message is
// an array class, which has no code to reach.
func tamiTarget(kind, target string) (t *Target, known bool, msg string) {
	switch kind {
	case "Class.forName", "Class.newInstance", "ClassLoader.loadClass":
		if strings.HasPrefix(target, "[") {
			return nil, true, ""
		}
		if !validClassName(target) {
			return nil, true, fmt.Sprintf("malformed %s target %q (want a binary class name, pkg.Name$Nested)", kind, target)
		}
		t = &Target{Class: target}
	case "Method.invoke", "Constructor.newInstance":
		tg, ok := sootSignature(target)
		if !ok {
			return nil, true, fmt.Sprintf("malformed %s target %q (want a Soot signature <pkg.C: ret name(types)>)", kind, target)
		}
		if kind == "Constructor.newInstance" && tg.Member != "<init>" {
			return nil, true, fmt.Sprintf("malformed %s target %q (want a constructor, <pkg.C: void <init>(types)>)", kind, target)
		}
		t = &tg
	default:
		return nil, false, ""
	}
	// The specification syntax reads a lower-case last segment without descriptor as
	// a method: such a class name would come back as a different target.
	if back, err := parseTarget(formatTarget(*t)); err != nil || back != *t {
		return nil, true, fmt.Sprintf("%s target %q cannot be written as a specification target", kind, target)
	}
	return t, true, ""
}

// validClassName reports whether s looks like a binary class name with dots.
func validClassName(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t/;()<>[],:") || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") || strings.Contains(s, "..") {
		return false
	}
	return true
}

// validJavaType reports whether s is a Java source type as Soot writes it: a
// primitive or class name, with any number of "[]".
func validJavaType(s string) bool {
	return validClassName(strings.ReplaceAll(s, "[]", ""))
}

// formatTarget writes a target as an entry's target list does.
func formatTarget(t Target) string {
	if t.Member == "" {
		return t.Class
	}
	return t.Class + "." + t.Member + t.Desc
}

// sootSignature parses "<pkg.C: ret name(p1,p2)>".
func sootSignature(s string) (Target, bool) {
	if !strings.HasPrefix(s, "<") || !strings.HasSuffix(s, ">") {
		return Target{}, false
	}
	s = s[1 : len(s)-1]
	cls, rest, ok := strings.Cut(s, ": ")
	if !ok || !validClassName(cls) {
		return Target{}, false
	}
	ret, sig, ok := strings.Cut(rest, " ")
	if !ok || !validJavaType(ret) {
		return Target{}, false
	}
	name, params, ok := strings.Cut(sig, "(")
	if !ok || !strings.HasSuffix(params, ")") || !validMethodName(name) {
		return Target{}, false
	}
	var d strings.Builder
	d.WriteByte('(')
	if p := strings.TrimSuffix(params, ")"); p != "" {
		for _, t := range strings.Split(p, ",") {
			t = strings.TrimSpace(t)
			if !validJavaType(t) {
				return Target{}, false
			}
			d.WriteString(JavaTypeToDescriptor(t))
		}
	}
	d.WriteByte(')')
	d.WriteString(JavaTypeToDescriptor(ret))
	return Target{Class: cls, Member: name, Desc: d.String()}, true
}

// validMethodName accepts a JVM method name: <init>, <clinit>, or a name without
// the characters JVMS 4.2.2 forbids.
func validMethodName(s string) bool {
	if s == "<init>" || s == "<clinit>" {
		return true
	}
	return s != "" && !strings.ContainsAny(s, " \t.;[/<>()")
}

// JavaTypeToDescriptor converts a Java source type ("int[]", "java.lang.String") to a
// JVM descriptor ("[I", "Ljava/lang/String;").
func JavaTypeToDescriptor(t string) string {
	dims := 0
	for strings.HasSuffix(t, "[]") {
		t = strings.TrimSuffix(t, "[]")
		dims++
	}
	prims := map[string]string{"void": "V", "boolean": "Z", "byte": "B", "char": "C", "short": "S",
		"int": "I", "long": "J", "float": "F", "double": "D"}
	d, ok := prims[t]
	if !ok {
		d = "L" + strings.ReplaceAll(t, ".", "/") + ";"
	}
	return strings.Repeat("[", dims) + d
}
