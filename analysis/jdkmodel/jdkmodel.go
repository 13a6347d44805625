// Package jdkmodel reads jcg-lsp's model of the JDK's native code: for each native
// method of the JDK, or family of them, what it may call back into Java, which classes
// it may create, what it returns, and what the JVM (or the launcher) calls on its own.
// It is the data of assumption level 6, Correct-JDK: "the JDK's native methods do only
// what this model says". The model is one reviewable text file, jdk.model, shipped
// inside the binary; every entry names its evidence.
//
// The file format (jdk.model's header says the same, for its reviewers):
//
//	# comment
//	native java/lang/Thread.start0()V        one native method
//	native java/lang/Thread.start0           every native overload of that name
//	native java/lang/StrictMath.*            every native method of the class
//	native sun/nio/ch/**                     every native method in the package and below
//	jvm thread-start                         something the JVM or the launcher does on its own
//	    <effect>                             indented lines: the entry's effects
//
// Effects:
//
//	none                           no callback, no object creation
//	call CLASS.NAME DESC           a call without dispatch (static, private, nonvirtual)
//	dispatch VALUE CLASS.NAME DESC a virtual or interface call on VALUE
//	new CLASS DESC                 creates an instance with constructor <init>DESC
//	alloc CLASS                    creates an instance without running a constructor
//	init CLASS                     initialises CLASS (its <clinit> chain)
//	returns VALUE                  the result is VALUE (for type flow)
//	handover FEATURE               resolved at the API's call sites by FEATURE's resolver
//	evidence TEXT                  where the entry comes from (at least one per entry)
//	when KEY                       jvm entries only: the JVM does this only in a run
//	                               configured so (a JVM option, an attached tool); the
//	                               analysis applies the entry at level 6 only when its
//	                               environment values (analysis.Options.Env) set KEY
//
// VALUE is this, argN (the native's N-th declared parameter, from 0) or any (an
// object of CLASS or a subtype that the program creates). Classes are internal names
// (java/lang/Thread), descriptors JVM descriptors. For a native method the most
// specific selector applies: the method with its descriptor, then its name, then its
// class, then the longest package.
package jdkmodel

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

//go:embed jdk.model
var shipped []byte

// FileName is the name under which errors report the shipped model.
const FileName = "analysis/jdkmodel/jdk.model"

// Shipped parses the model compiled into the binary. A problem in it is a bug of
// the release, reported as an error for tests to catch.
func Shipped() (*Model, error) {
	m, errs := Parse(FileName, shipped)
	if len(errs) > 0 {
		return m, fmt.Errorf("%d problems in the JDK model, first: %w", len(errs), errs[0])
	}
	return m, nil
}

// SelectorKind says what an entry applies to.
type SelectorKind uint8

// Selector kinds, from the most specific to the least.
const (
	SelMethod  SelectorKind = iota // one native method: Class, Name, Desc
	SelName                        // every native overload: Class, Name
	SelClass                       // every native of a class: Class
	SelPackage                     // every native in a package and its subpackages: Class holds the package
	SelJVM                         // something the JVM does on its own: Name
)

// EffectKind names an effect.
type EffectKind uint8

// Effect kinds.
const (
	EffNone EffectKind = iota
	EffCall
	EffDispatch
	EffNew
	EffAlloc
	EffInit
	EffReturns
	EffHandover
	EffSets
)

var effectNames = [...]string{"none", "call", "dispatch", "new", "alloc", "init", "returns", "handover", "sets"}

func (k EffectKind) String() string { return effectNames[k] }

// ValueKind says which value an effect is about.
type ValueKind uint8

// Value kinds.
const (
	ValNone ValueKind = iota
	ValThis           // the native's receiver
	ValArg            // a declared parameter of the native
	ValAny            // any object of the effect's class that the program creates
)

// Value is the object a dispatch is made on or a result is.
type Value struct {
	Kind ValueKind
	Arg  int // for ValArg, from 0
}

func (v Value) String() string {
	switch v.Kind {
	case ValThis:
		return "this"
	case ValArg:
		return "arg" + strconv.Itoa(v.Arg)
	case ValAny:
		return "any"
	}
	return ""
}

// Effect is one thing a native method or the JVM may do.
type Effect struct {
	Kind    EffectKind
	Value   Value  // dispatch, returns
	Class   string // call, dispatch, new, alloc, init
	Name    string // call, dispatch ("<init>" for new)
	Desc    string // call, dispatch, new
	Feature string // handover
	Key     string // sets: the system property the native code sets
	Line    int
}

func (e Effect) String() string {
	switch e.Kind {
	case EffCall:
		return "call " + e.Class + "." + e.Name + " " + e.Desc
	case EffDispatch:
		return "dispatch " + e.Value.String() + " " + e.Class + "." + e.Name + " " + e.Desc
	case EffNew:
		return "new " + e.Class + " " + e.Desc
	case EffAlloc, EffInit:
		return e.Kind.String() + " " + e.Class
	case EffReturns:
		return "returns " + e.Value.String()
	case EffHandover:
		return "handover " + e.Feature
	case EffSets:
		return "sets " + e.Key
	}
	return e.Kind.String()
}

// Entry is one block of the model.
type Entry struct {
	Kind     SelectorKind
	Class    string // the class, or the package for SelPackage
	Name     string // the method name, or the JVM activity's name
	Desc     string
	Effects  []Effect
	Evidence []string
	// When is the environment key that enables a jvm entry, "" for one that
	// applies to every run.
	When string
	Line int
}

// Selector renders the entry's selector as the file writes it.
func (e *Entry) Selector() string {
	switch e.Kind {
	case SelMethod:
		return "native " + e.Class + "." + e.Name + e.Desc
	case SelName:
		return "native " + e.Class + "." + e.Name
	case SelClass:
		return "native " + e.Class + ".*"
	case SelPackage:
		return "native " + e.Class + "/**"
	}
	return "jvm " + e.Name
}

// Has reports whether the entry has an effect of kind k.
func (e *Entry) Has(k EffectKind) bool {
	return slices.ContainsFunc(e.Effects, func(x Effect) bool { return x.Kind == k })
}

// Model is a parsed model.
type Model struct {
	Entries []*Entry // in file order
	methods map[string]*Entry
	names   map[string]*Entry
	classes map[string]*Entry
	pkgs    map[string]*Entry
}

// JVM returns the entries of what the JVM does on its own.
func (m *Model) JVM() []*Entry {
	var out []*Entry
	for _, e := range m.Entries {
		if e.Kind == SelJVM {
			out = append(out, e)
		}
	}
	return out
}

// Lookup returns the entry that applies to the native method class.name desc, or nil
// when the model says nothing about it.
func (m *Model) Lookup(class, name, desc string) *Entry {
	if e := m.methods[class+"."+name+desc]; e != nil {
		return e
	}
	if e := m.names[class+"."+name]; e != nil {
		return e
	}
	if e := m.classes[class]; e != nil {
		return e
	}
	for p := class; ; {
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return nil
		}
		p = p[:i]
		if e := m.pkgs[p]; e != nil {
			return e
		}
	}
}

// Error is a problem at a line of a model file.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Msg }

// Parse reads a model. Bad lines are reported and skipped; an entry without evidence
// or effects is reported too, so a model that parses without errors is complete.
func Parse(file string, data []byte) (*Model, []error) {
	m := &Model{methods: map[string]*Entry{}, names: map[string]*Entry{}, classes: map[string]*Entry{}, pkgs: map[string]*Entry{}}
	var errs []error
	bad := func(line int, format string, args ...any) {
		errs = append(errs, &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	seen := map[string]int{}
	var cur *Entry
	finish := func() {
		if cur == nil {
			return
		}
		if len(cur.Effects) == 0 {
			bad(cur.Line, "%s has no effects (write none for a native that calls nothing)", cur.Selector())
		}
		if len(cur.Evidence) == 0 {
			bad(cur.Line, "%s names no evidence", cur.Selector())
		}
		cur = nil
	}
	for i, raw := range strings.Split(string(data), "\n") {
		line := i + 1
		text := strings.TrimRight(raw, " \t\r")
		if t := strings.TrimSpace(text); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if text[0] != ' ' && text[0] != '\t' {
			finish()
			e, err := parseSelector(text)
			if err != nil {
				bad(line, "%v", err)
				continue
			}
			e.Line = line
			key := e.Selector()
			if prev, dup := seen[key]; dup {
				bad(line, "%s is already an entry at line %d", key, prev)
				continue
			}
			seen[key] = line
			m.add(e)
			cur = e
			continue
		}
		if cur == nil {
			bad(line, "an effect outside any entry (entries start at column 0 with native or jvm)")
			continue
		}
		t := strings.TrimSpace(text)
		if rest, ok := strings.CutPrefix(t, "evidence "); ok {
			cur.Evidence = append(cur.Evidence, strings.TrimSpace(rest))
			continue
		}
		if rest, ok := strings.CutPrefix(t, "when "); ok {
			key := strings.TrimSpace(rest)
			switch {
			case cur.Kind != SelJVM:
				bad(line, "when applies to jvm entries only: a native does what it does whenever it runs")
			case cur.When != "":
				bad(line, "%s has a when already (line %d's entry takes one key)", cur.Selector(), cur.Line)
			case !validKey(key):
				bad(line, "bad when key %q (want letters, digits, '.', '-', e.g. jvm.jfr)", key)
			default:
				cur.When = key
			}
			continue
		}
		eff, err := parseEffect(t, cur.Kind)
		if err != nil {
			bad(line, "%v", err)
			continue
		}
		eff.Line = line
		if eff.Kind == EffNone && len(cur.Effects) > 0 || len(cur.Effects) > 0 && cur.Effects[0].Kind == EffNone {
			bad(line, "none cannot be combined with other effects")
			continue
		}
		cur.Effects = append(cur.Effects, eff)
	}
	finish()
	return m, errs
}

func (m *Model) add(e *Entry) {
	m.Entries = append(m.Entries, e)
	switch e.Kind {
	case SelMethod:
		m.methods[e.Class+"."+e.Name+e.Desc] = e
	case SelName:
		m.names[e.Class+"."+e.Name] = e
	case SelClass:
		m.classes[e.Class] = e
	case SelPackage:
		m.pkgs[e.Class] = e
	}
}

func parseSelector(text string) (*Entry, error) {
	word, rest, _ := strings.Cut(text, " ")
	rest = strings.TrimSpace(rest)
	switch word {
	case "jvm":
		if rest == "" || strings.ContainsAny(rest, " \t") {
			return nil, fmt.Errorf("jvm wants one name without spaces: %q", text)
		}
		return &Entry{Kind: SelJVM, Name: rest}, nil
	case "native":
	default:
		return nil, fmt.Errorf("an entry starts with native or jvm, not %q", word)
	}
	if strings.ContainsAny(rest, " \t") {
		return nil, fmt.Errorf("native wants one method, class or package without spaces: %q", rest)
	}
	if pkg, ok := strings.CutSuffix(rest, "/**"); ok {
		if !validName(pkg) {
			return nil, fmt.Errorf("bad package %q", pkg)
		}
		return &Entry{Kind: SelPackage, Class: pkg}, nil
	}
	desc := ""
	if i := strings.IndexByte(rest, '('); i >= 0 {
		rest, desc = rest[:i], rest[i:]
		if !validMethodDesc(desc) {
			return nil, fmt.Errorf("bad method descriptor %q", desc)
		}
	}
	dot := strings.LastIndexByte(rest, '.')
	if dot <= 0 || dot == len(rest)-1 {
		return nil, fmt.Errorf("want class.method, class.method(desc), class.* or package/**: %q", text)
	}
	class, name := rest[:dot], rest[dot+1:]
	if !validName(class) {
		return nil, fmt.Errorf("bad class name %q", class)
	}
	switch {
	case name == "*" && desc == "":
		return &Entry{Kind: SelClass, Class: class}, nil
	case !validMember(name):
		return nil, fmt.Errorf("bad method name %q", name)
	case desc != "":
		return &Entry{Kind: SelMethod, Class: class, Name: name, Desc: desc}, nil
	}
	return &Entry{Kind: SelName, Class: class, Name: name}, nil
}

func parseEffect(t string, sel SelectorKind) (Effect, error) {
	f := strings.Fields(t)
	k := slices.Index(effectNames[:], f[0])
	if k < 0 {
		return Effect{}, fmt.Errorf("unknown effect %q (want one of %s, or evidence)", f[0], strings.Join(effectNames[:], ", "))
	}
	e := Effect{Kind: EffectKind(k)}
	want := map[EffectKind]int{EffNone: 1, EffCall: 3, EffDispatch: 4, EffNew: 3, EffAlloc: 2, EffInit: 2, EffReturns: 2, EffHandover: 2, EffSets: 2}[e.Kind]
	if len(f) != want {
		return Effect{}, fmt.Errorf("%s wants %d words, got %q", f[0], want-1, t)
	}
	args := f[1:]
	if e.Kind == EffDispatch || e.Kind == EffReturns {
		v, err := parseValue(args[0], sel)
		if err != nil {
			return Effect{}, err
		}
		if e.Kind == EffReturns && v.Kind == ValAny {
			return Effect{}, fmt.Errorf("returns wants this or argN")
		}
		e.Value, args = v, args[1:]
	}
	switch e.Kind {
	case EffCall, EffDispatch:
		dot := strings.LastIndexByte(args[0], '.')
		if dot <= 0 || !validName(args[0][:dot]) || !validMember(args[0][dot+1:]) {
			return Effect{}, fmt.Errorf("want CLASS.NAME, got %q", args[0])
		}
		e.Class, e.Name, e.Desc = args[0][:dot], args[0][dot+1:], args[1]
		if !validMethodDesc(e.Desc) {
			return Effect{}, fmt.Errorf("bad method descriptor %q", e.Desc)
		}
	case EffNew:
		e.Class, e.Name, e.Desc = args[0], "<init>", args[1]
		if !validName(e.Class) || !validMethodDesc(e.Desc) || !strings.HasSuffix(e.Desc, ")V") {
			return Effect{}, fmt.Errorf("new wants CLASS and a constructor descriptor (...)V, got %q", t)
		}
	case EffAlloc, EffInit:
		e.Class = args[0]
		if !validName(e.Class) {
			return Effect{}, fmt.Errorf("bad class name %q", e.Class)
		}
	case EffSets:
		e.Key = args[0]
		if !validKey(e.Key) {
			return Effect{}, fmt.Errorf("bad system property key %q", e.Key)
		}
	case EffHandover:
		e.Feature = args[0]
		if !slices.Contains(Features, e.Feature) {
			return Effect{}, fmt.Errorf("unknown feature %q (want one of %s)", e.Feature, strings.Join(Features, ", "))
		}
	}
	return e, nil
}

// Features are the resolvers a native may hand over to.
var Features = []string{"loading", "instantiation", "invocation", "methodhandle", "unsafe", "proxy", "field"}

func parseValue(s string, sel SelectorKind) (Value, error) {
	switch {
	case s == "any":
		return Value{Kind: ValAny}, nil
	case sel == SelJVM:
		return Value{}, fmt.Errorf("a jvm entry has no receiver or arguments: want any, got %q", s)
	case s == "this":
		return Value{Kind: ValThis}, nil
	case strings.HasPrefix(s, "arg"):
		n, err := strconv.Atoi(s[3:])
		if err == nil && n >= 0 && n < 256 {
			return Value{Kind: ValArg, Arg: n}, nil
		}
	}
	return Value{}, fmt.Errorf("want this, argN or any, got %q", s)
}

// validKey reports whether s can be an environment key of a when line.
func validKey(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func validName(s string) bool {
	if s == "" || s[0] == '/' || s[len(s)-1] == '/' || strings.Contains(s, "//") {
		return false
	}
	return !strings.ContainsAny(s, ".;[()<> \t")
}

func validMember(s string) bool {
	if s == "<init>" || s == "<clinit>" {
		return true
	}
	return s != "" && !strings.ContainsAny(s, "./;[()<> \t")
}

// validMethodDesc checks a method descriptor's shape (JVMS 4.3.3).
func validMethodDesc(d string) bool {
	if len(d) < 3 || d[0] != '(' {
		return false
	}
	i := 1
	field := func(allowVoid bool) bool {
		for i < len(d) && d[i] == '[' {
			i++
			allowVoid = false
		}
		if i >= len(d) {
			return false
		}
		switch d[i] {
		case 'B', 'C', 'D', 'F', 'I', 'J', 'S', 'Z':
			i++
			return true
		case 'V':
			i++
			return allowVoid
		case 'L':
			j := strings.IndexByte(d[i:], ';')
			if j < 2 || !validName(d[i+1:i+j]) {
				return false
			}
			i += j + 1
			return true
		}
		return false
	}
	for i < len(d) && d[i] != ')' {
		if !field(false) {
			return false
		}
	}
	if i >= len(d) {
		return false
	}
	i++
	return field(true) && i == len(d)
}

// ParamDesc returns the field descriptor of parameter n (from 0) of a method
// descriptor, or "" when it has no such parameter: what an argN value is declared as.
func ParamDesc(desc string, n int) string {
	i := 1
	for k := 0; i < len(desc) && desc[i] != ')'; k++ {
		start := i
		for i < len(desc) && desc[i] == '[' {
			i++
		}
		if i < len(desc) && desc[i] == 'L' {
			j := strings.IndexByte(desc[i:], ';')
			if j < 0 {
				return ""
			}
			i += j
		}
		i++
		if k == n {
			return desc[start:min(i, len(desc))]
		}
	}
	return ""
}
