package hierarchy_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// The expected answers of these tests live in the test programs, as directives in
// // comments next to the Java code (or the synthetic class descriptions) they are
// about. Every directive is one line:
//
//	RESOLVE <insn> [caller=<class>] <class>.<name><desc> -> <want>
//	    Resolve the method reference as instruction <insn> (invokevirtual,
//	    invokeinterface, invokestatic, invokespecial) would: an InterfaceMethodref for
//	    invokeinterface, and for invokestatic/invokespecial when <class> is an
//	    interface (as javac emits them), else a Methodref. Then the instruction's
//	    linkage checks (static vs instance: IncompatibleClassChangeError; a
//	    constructor of another class: NoSuchMethodError) and, with caller=, the
//	    access checks of JVMS 5.4.4 (IllegalAccessError).
//	SELECT invokevirtual|invokeinterface receiver=<class> <ref> -> <want>
//	    Resolve <ref> as above, then select for an object of class <class> (5.4.6).
//	SELECT invokespecial caller=<class> <ref> -> <want>
//	    Resolve <ref> as above, then select as invokespecial in <class> (6.5).
//	FIELD <class>.<name>:<desc> -> <want>
//	    Resolve the field reference (5.4.3.2).
//	NEST <host>: <members...>
//	    <host>'s NestMembers are exactly <members>, each has <host> as its nest host
//	    and is in its source-level nest.
//	NESTHOST <class> -> <host>
//	ENCAP from=<class> <class>.<name><desc> -> safe|unsafe
//	    Assumption level 2: EncapsulationSafe, or EncapsulationSafeConstructor for
//	    <init>.
//	NESTING <class> -> top-level|member|local|anonymous [outer=<class>] [method=<name><desc>]
//	SUBTYPES <class> -> <classes...>     AllSubtypes: reflexive, each once, any order
//	SUPERTYPES <class> -> <classes...>   Supertypes: likewise
//	PHANTOM <class>                      <class> stands for a missing supertype
//	CYCLIC <classes...>                  exactly these classes are on supertype cycles
//	PROBLEM <kind> <class>               New reported a problem of this kind about <class>
//	EXCLUDE <prefix>                     leave the classes named <prefix>... out of the input
//
// A RESOLVE or SELECT written after code on its line (a trailing directive) also
// states that the line compiles to the instruction it names, and the test checks
// that the class files have it, with the kind of constant (Methodref or
// InterfaceMethodref) the directive assumes. SELECT with invokevirtual or
// invokeinterface may also have caller=, for the access check of the resolution.
//
// <want> is <class>.<name>, or <class>.<name><desc> where the name alone is
// ambiguous, or !<Error> with the JVM's error (NoSuchMethodError,
// NoSuchFieldError, IncompatibleClassChangeError, AbstractMethodError,
// IllegalAccessError), or !Incomplete when the lookup found nothing but passed
// phantom classes. Alternatives are separated by |. A trailing release=<n> limits a
// directive to the compilation for that Java release (17 when not specified).
//
// Failures are reported at the directive's file:line.

var directiveRE = regexp.MustCompile(`//\s*(RESOLVE|SELECT|FIELD|NEST|NESTHOST|ENCAP|NESTING|SUBTYPES|SUPERTYPES|PHANTOM|CYCLIC|PROBLEM|EXCLUDE)\s+(.*?)\s*$`)

type directive struct {
	pos      string // file:line
	file     string // source path relative to the program's src directory
	line     int
	trailing bool // written after code on its line
	verb     string
	left     []string          // positional arguments before ->
	right    []string          // after ->
	opts     map[string]string // key=value arguments
	release  int
}

// parseDirectives returns the directives of text, which came from file (shown
// as display in messages).
func parseDirectives(display, file, text string) []directive {
	var ds []directive
	for i, line := range strings.Split(text, "\n") {
		loc := directiveRE.FindStringSubmatchIndex(line)
		if loc == nil {
			continue
		}
		m := []string{line[loc[0]:loc[1]], line[loc[2]:loc[3]], line[loc[4]:loc[5]]}
		d := directive{pos: fmt.Sprintf("%s:%d", display, i+1), file: file, line: i + 1, verb: m[1], opts: map[string]string{},
			trailing: strings.TrimSpace(line[:loc[0]]) != ""}
		after := false
		for _, tok := range strings.Fields(m[2]) {
			if tok == "->" {
				after = true
				continue
			}
			if k, v, ok := strings.Cut(tok, "="); ok && !strings.ContainsAny(k, "/.(") {
				if k == "release" {
					d.release, _ = strconv.Atoi(v)
				} else {
					d.opts[k] = v
				}
				continue
			}
			if after {
				d.right = append(d.right, tok)
			} else {
				d.left = append(d.left, tok)
			}
		}
		ds = append(ds, d)
	}
	return ds
}

// sourceDirectives reads the directives of every .java file under srcDir.
func sourceDirectives(t *testing.T, srcDir string) []directive {
	t.Helper()
	var ds []directive
	javatest.Sources(t, srcDir, func(path string, text []byte) {
		rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(srcDir)), path)
		file, _ := filepath.Rel(srcDir, path)
		ds = append(ds, parseDirectives(filepath.ToSlash(rel), filepath.ToSlash(file), string(text))...)
	})
	return ds
}

func excludes(ds []directive) []string {
	var out []string
	for _, d := range ds {
		if d.verb == "EXCLUDE" {
			out = append(out, d.left...)
		}
	}
	return out
}

// checkProgram compiles testdata/java/<name>, builds it with the JDK and checks its
// directives.
func checkProgram(t *testing.T, name string, release int, opts ...javatest.Option) {
	src := javatest.Program(t, name)
	if release != 0 {
		opts = append(opts, javatest.Release(release))
	} else {
		release = 17
	}
	classes := javatest.Compile(t, src, opts...)
	ds := sourceDirectives(t, src)
	if len(ds) == 0 {
		t.Fatalf("no directives in %s", src)
	}
	app := classDir(t, classes, excludes(ds))
	h := withJDK(t, app)
	check(t, h, ds, release)
	checkCallSites(t, h, app, ds, release)
}

// checkCallSites checks that every trailing RESOLVE or SELECT names an instruction
// of its line, as compiled.
func checkCallSites(t *testing.T, h *hierarchy.Hierarchy, app []hierarchy.Input, ds []directive, release int) {
	type key struct {
		file string
		line int
	}
	sites := map[key][]string{}
	for _, in := range app {
		f := in.File
		if f.SourceFile == "" {
			continue
		}
		file := f.SourceFile
		if pkg := hierarchy.Package(f.Name); pkg != "" {
			file = pkg + "/" + file
		}
		for i := range f.Methods {
			code, err := f.Methods[i].Code()
			if err != nil || code == nil {
				continue
			}
			err = bytecode.Walk(code.Bytecode, func(in bytecode.Instr) error {
				if in.Op.IsInvoke() && in.Op != bytecode.Invokedynamic {
					ref := f.Pool.Ref(in.Index)
					k := key{file, code.LineAt(in.PC)}
					sites[k] = append(sites[k], fmt.Sprintf("%s %s.%s%s interface=%v", in.Op, ref.Class, ref.Name, ref.Desc, ref.Interface))
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s.%s: %v", f.Name, f.Methods[i].Name, err)
			}
		}
	}
	n := 0
	for _, d := range ds {
		if !d.trailing || (d.verb != "RESOLVE" && d.verb != "SELECT") || (d.release != 0 && d.release != release) || len(d.left) < 2 {
			continue
		}
		insn, ref := d.left[0], d.left[1]
		owner := ref[:strings.LastIndexByte(ref[:strings.IndexByte(ref, '(')], '.')]
		c := h.Class(owner)
		if c == nil {
			continue // reported by check
		}
		iface := insn == "invokeinterface" || (insn == "invokestatic" || insn == "invokespecial") && c.IsInterface()
		want := fmt.Sprintf("%s %s interface=%v", insn, ref, iface)
		got := sites[key{d.file, d.line}]
		if !slices.Contains(got, want) {
			t.Errorf("%s: no instruction %s on this line; it has %v", d.pos, want, got)
		}
		n++
	}
	t.Logf("%d call sites checked", n)
}

func TestHierarchyProgram(t *testing.T) { checkProgram(t, "hierarchy", 0) }

// TestHierarchyProgramJavac25 checks the same directives against the class files of
// javac 25 (class-file version 69), where they must hold as well.
func TestHierarchyProgramJavac25(t *testing.T) {
	javac := "/usr/lib/jvm/temurin-25-jdk-amd64/bin/javac"
	if _, err := os.Stat(javac); err != nil {
		t.Skipf("no JDK 25: %v", err)
	}
	checkProgram(t, "hierarchy", 25, javatest.WithJavac(javac))
}

func TestEncapProgram(t *testing.T) {
	t.Run("release17", func(t *testing.T) { checkProgram(t, "hierarchy-encap", 0) })
	t.Run("release8", func(t *testing.T) { checkProgram(t, "hierarchy-encap", 8) })
}

func TestExtraProgram(t *testing.T) { checkProgram(t, "hierarchy-extra", 0) }

// TestSynthetic checks the hand-built class files of testdata/java/hierarchy-synthetic.
func TestSynthetic(t *testing.T) {
	files, err := filepath.Glob("../../testdata/java/hierarchy-synthetic/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no synthetic testdata: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			text := readFile(t, file)
			classes, err := parseSynthetic(text)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			var inputs []hierarchy.Input
			for _, c := range classes {
				f, err := classfile.Parse(c.bytes())
				if err != nil {
					t.Fatalf("%s: class %s: %v", file, c.name, err)
				}
				inputs = append(inputs, hierarchy.Input{File: f, Origin: hierarchy.Application})
			}
			rel, _ := filepath.Rel("../..", file)
			check(t, withJDK(t, inputs), parseDirectives(filepath.ToSlash(rel), filepath.Base(file), text), 17)
		})
	}
}

// check runs the directives against h.
func check(t *testing.T, h *hierarchy.Hierarchy, ds []directive, release int) {
	t.Helper()
	x := &checker{t: t, h: h}
	var cyclic []string
	cyclicSeen := false
	n := 0
	for _, d := range ds {
		if d.release != 0 && d.release != release {
			continue
		}
		x.d = d
		n++
		switch d.verb {
		case "RESOLVE":
			x.resolveDirective()
		case "SELECT":
			x.selectDirective()
		case "FIELD":
			x.fieldDirective()
		case "NEST":
			x.nestDirective(release)
		case "NESTHOST":
			if c, want := x.class(x.arg(0)), x.want(0); c != nil && c.NestHost.Name != want {
				x.errorf("nest host of %s is %s, want %s", c, c.NestHost, want)
			}
		case "ENCAP":
			x.encapDirective()
		case "NESTING":
			x.nestingDirective()
		case "SUBTYPES", "SUPERTYPES":
			x.typesDirective()
		case "PHANTOM":
			if c := x.class(x.arg(0)); c != nil && !c.Phantom {
				x.errorf("%s is not a phantom", c)
			}
		case "CYCLIC":
			cyclicSeen = true
			cyclic = append(cyclic, d.left...)
		case "PROBLEM":
			x.problemDirective()
		case "EXCLUDE":
		default:
			x.errorf("unknown directive %s", d.verb)
		}
	}
	if cyclicSeen {
		var got []string
		for _, c := range h.Classes() {
			if c.Cyclic {
				got = append(got, c.Name)
			}
		}
		slices.Sort(got)
		slices.Sort(cyclic)
		if !slices.Equal(got, cyclic) {
			t.Errorf("cyclic classes are %v, want %v", got, cyclic)
		}
	}
	t.Logf("%d directives checked", n)
}

type checker struct {
	t *testing.T
	h *hierarchy.Hierarchy
	d directive
}

func (x *checker) errorf(format string, args ...any) {
	x.t.Helper()
	x.t.Errorf("%s: %s %s: %s", x.d.pos, x.d.verb, strings.Join(x.d.left, " "), fmt.Sprintf(format, args...))
}

func (x *checker) arg(i int) string {
	if i < len(x.d.left) {
		return x.d.left[i]
	}
	x.errorf("missing argument %d", i+1)
	return ""
}

func (x *checker) want(i int) string {
	if i < len(x.d.right) {
		return x.d.right[i]
	}
	x.errorf("missing expected result")
	return ""
}

func (x *checker) class(name string) *hierarchy.Class {
	x.t.Helper()
	c := x.h.Class(name)
	if c == nil && name != "" {
		x.errorf("no class %s", name)
	}
	return c
}

// ref splits "pkg/C.name(desc)" or "pkg/C.name:desc".
func (x *checker) ref(s string) (owner *hierarchy.Class, name, desc string) {
	i := strings.IndexAny(s, "(:")
	if i < 0 {
		x.errorf("bad member reference %q", s)
		return nil, "", ""
	}
	head, desc := s[:i], strings.TrimPrefix(s[i:], ":")
	j := strings.LastIndexByte(head, '.')
	if j < 0 {
		x.errorf("bad member reference %q", s)
		return nil, "", ""
	}
	return x.class(head[:j]), head[j+1:], desc
}

// compare checks got against the alternatives of want.
func (x *checker) compare(got func(withDesc bool) string) {
	x.t.Helper()
	want := x.want(0)
	for _, w := range strings.Split(want, "|") {
		if got(strings.Contains(w, "(")) == w {
			return
		}
	}
	x.errorf("got %s, want %s", got(strings.Contains(want, "(")), want)
}

func methodResult(m *hierarchy.Method, errName string) func(bool) string {
	return func(withDesc bool) string {
		switch {
		case m == nil:
			return "!" + errName
		case withDesc:
			return m.Class.Name + "." + m.Name + m.Desc
		}
		return m.Class.Name + "." + m.Name
	}
}

func errorName(err error) string {
	switch {
	case errors.Is(err, hierarchy.ErrNoSuchMethod):
		return "NoSuchMethodError"
	case errors.Is(err, hierarchy.ErrNoSuchField):
		return "NoSuchFieldError"
	case errors.Is(err, hierarchy.ErrIncompatibleClassChange):
		return "IncompatibleClassChangeError"
	case errors.Is(err, hierarchy.ErrAbstractMethod):
		return "AbstractMethodError"
	case errors.Is(err, hierarchy.ErrIncomplete):
		return "Incomplete"
	}
	return "unexpected error " + err.Error()
}

// resolve resolves and links a method reference as instruction insn would.
func (x *checker) resolve(insn string, caller *hierarchy.Class, ref string) (*hierarchy.Method, string) {
	owner, name, desc := x.ref(ref)
	if owner == nil {
		return nil, "no class"
	}
	var isInterface bool
	switch insn {
	case "invokeinterface":
		isInterface = true
	case "invokestatic", "invokespecial":
		isInterface = owner.IsInterface()
	case "invokevirtual":
	default:
		x.errorf("unknown instruction %s", insn)
	}
	m, err := x.h.ResolveMethod(owner, name, desc, isInterface)
	if err != nil {
		return nil, errorName(err)
	}
	switch {
	case insn == "invokestatic" && !m.IsStatic(),
		insn != "invokestatic" && m.IsStatic():
		return nil, "IncompatibleClassChangeError"
	case insn == "invokespecial" && m.IsConstructor() && m.Class != owner:
		return nil, "NoSuchMethodError"
	}
	if caller != nil && (!x.h.ClassAccessible(caller, owner) || !x.h.Accessible(caller, m, owner)) {
		return nil, "IllegalAccessError"
	}
	return m, ""
}

func (x *checker) resolveDirective() {
	var caller *hierarchy.Class
	if name, ok := x.d.opts["caller"]; ok {
		caller = x.class(name)
	}
	m, errName := x.resolve(x.arg(0), caller, x.arg(1))
	x.compare(methodResult(m, errName))
}

func (x *checker) selectDirective() {
	insn := x.arg(0)
	switch insn {
	case "invokevirtual", "invokeinterface":
		recv := x.class(x.d.opts["receiver"])
		var caller *hierarchy.Class
		if name, ok := x.d.opts["caller"]; ok {
			caller = x.class(name)
		}
		m, errName := x.resolve(insn, caller, x.arg(1))
		if recv == nil || m == nil {
			x.compare(methodResult(nil, errName))
			return
		}
		sel, err := x.h.Selection(recv, m)
		if s := x.h.Select(recv, m); s != sel {
			x.errorf("Select returns %v but Selection %v", s, sel)
		}
		if err != nil {
			errName = errorName(err)
		}
		x.compare(methodResult(sel, errName))
	case "invokespecial":
		caller := x.class(x.d.opts["caller"])
		m, errName := x.resolve(insn, caller, x.arg(1))
		if caller == nil || m == nil {
			x.compare(methodResult(nil, errName))
			return
		}
		owner, _, _ := x.ref(x.arg(1))
		sel := x.h.SpecialTarget(caller, m, owner)
		x.compare(methodResult(sel, "AbstractMethodError"))
	default:
		x.errorf("unknown instruction %s", insn)
	}
}

func (x *checker) fieldDirective() {
	owner, name, desc := x.ref(x.arg(0))
	if owner == nil {
		return
	}
	f, err := x.h.ResolveField(owner, name, desc)
	x.compare(func(bool) string {
		if err != nil {
			return "!" + errorName(err)
		}
		return f.Class.Name + "." + f.Name
	})
}

func (x *checker) nestDirective(release int) {
	host := x.class(strings.TrimSuffix(x.arg(0), ":"))
	if host == nil {
		return
	}
	want := slices.Clone(x.d.left[1:])
	for _, name := range want {
		if m := x.class(name); m != nil {
			if release >= 11 && m.NestHost != host {
				x.errorf("nest host of %s is %s", m, m.NestHost)
			}
			if !x.h.SameNest(m, host) {
				x.errorf("%s is not in the source-level nest of %s", m, host)
			}
		}
	}
	if release < 11 {
		return
	}
	got := slices.Clone(x.h.File(host).NestMembers)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		x.errorf("NestMembers are %v", got)
	}
}

func (x *checker) encapDirective() {
	from := x.class(x.d.opts["from"])
	owner, name, desc := x.ref(x.arg(0))
	if from == nil || owner == nil {
		return
	}
	m := owner.Method(name, desc)
	if m == nil {
		x.errorf("%s declares no %s%s", owner, name, desc)
		return
	}
	safe := x.h.EncapsulationSafe(from, m)
	if m.IsConstructor() {
		safe = x.h.EncapsulationSafeConstructor(from, m)
	}
	got := map[bool]string{true: "safe", false: "unsafe"}[safe]
	if want := x.want(0); got != want {
		x.errorf("got %s, want %s", got, want)
	}
}

func (x *checker) nestingDirective() {
	c := x.class(x.arg(0))
	if c == nil {
		return
	}
	if got, want := c.Nesting.String(), x.want(0); got != want {
		x.errorf("nesting is %s, want %s", got, want)
	}
	outer := ""
	if c.Outer != nil {
		outer = c.Outer.Name
	}
	if want := x.d.opts["outer"]; outer != want {
		x.errorf("outer class is %q, want %q", outer, want)
	}
	method := ""
	if m := c.EnclosingMethod; m != nil {
		method = m.Name + m.Desc
	}
	if want := x.d.opts["method"]; method != want {
		x.errorf("enclosing method is %q, want %q", method, want)
	}
	if top := x.h.TopLevel(c); top == nil || !x.h.SameNest(top, c) {
		x.errorf("top-level class %v is not in the class's nest", top)
	}
}

func (x *checker) typesDirective() {
	c := x.class(x.arg(0))
	if c == nil {
		return
	}
	var got []string
	walk := x.h.AllSubtypes
	if x.d.verb == "SUPERTYPES" {
		walk = x.h.Supertypes
	}
	walk(c, func(s *hierarchy.Class) bool {
		got = append(got, s.Name)
		if x.d.verb == "SUPERTYPES" && !x.h.IsSubtype(c, s) || x.d.verb == "SUBTYPES" && !x.h.IsSubtype(s, c) {
			x.errorf("IsSubtype disagrees about %s", s)
		}
		return true
	})
	want := slices.Clone(x.d.right)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		x.errorf("got %v, want %v", got, want)
	}
}

var problemKinds = map[string]hierarchy.ProblemKind{
	"duplicate": hierarchy.Duplicate, "missing": hierarchy.Missing, "cycle": hierarchy.Cycle,
	"bad-supertype": hierarchy.BadSupertype, "bad-nest-host": hierarchy.BadNestHost, "bad-nesting": hierarchy.BadNesting,
}

func (x *checker) problemDirective() {
	kind, ok := problemKinds[x.arg(0)]
	if !ok {
		x.errorf("unknown problem kind %q", x.arg(0))
		return
	}
	class := x.arg(1)
	for _, p := range x.h.Problems() {
		if p.Kind == kind && p.Class == class {
			x.t.Logf("%s: %s", x.d.pos, p)
			return
		}
	}
	x.errorf("no such problem")
}
