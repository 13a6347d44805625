package spec

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// ImportTamiFlex turns a TamiFlex refl.log (lines "Kind;Target;CallerMethod;Line;...")
// into specification entries, one per (caller, line) with the observed targets
// merged. Lines without a source line (-1: no debug information) cannot name a site
// robustly and are reported. The result is sorted like a specification file.
func ImportTamiFlex(name string, r io.Reader) ([]Entry, []Problem) {
	type key struct {
		caller string
		line   int
	}
	byKey := map[key]*Entry{}
	var order []key
	var probs []Problem
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
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
		t, ok := tamiTarget(kind, target)
		if !ok {
			continue // Field and Array entries, getDeclaredMethods, ...: no call edge
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
		if !containsTarget(e.Targets, t) {
			e.Targets = append(e.Targets, t)
		}
	}
	if err := sc.Err(); err != nil {
		probs = append(probs, Problem{File: name, Line: 0, Col: 0, Msg: err.Error()})
	}
	out := make([]Entry, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return Compare(a.Site, b.Site) })
	return out, probs
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
// Constructor.newInstance.
func tamiTarget(kind, target string) (Target, bool) {
	switch kind {
	case "Class.forName", "Class.newInstance", "ClassLoader.loadClass":
		return Target{Class: target}, target != ""
	case "Method.invoke", "Constructor.newInstance":
		return sootSignature(target)
	}
	return Target{}, false
}

// sootSignature parses "<pkg.C: ret name(p1,p2)>".
func sootSignature(s string) (Target, bool) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
	cls, rest, ok := strings.Cut(s, ": ")
	if !ok {
		return Target{}, false
	}
	ret, sig, ok := strings.Cut(rest, " ")
	if !ok {
		return Target{}, false
	}
	name, params, ok := strings.Cut(sig, "(")
	if !ok || !strings.HasSuffix(params, ")") {
		return Target{}, false
	}
	var d strings.Builder
	d.WriteByte('(')
	if p := strings.TrimSuffix(params, ")"); p != "" {
		for _, t := range strings.Split(p, ",") {
			d.WriteString(JavaTypeToDescriptor(strings.TrimSpace(t)))
		}
	}
	d.WriteByte(')')
	d.WriteString(JavaTypeToDescriptor(ret))
	return Target{Class: cls, Member: name, Desc: d.String()}, true
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
