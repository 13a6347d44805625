package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

var update = flag.Bool("update", false, "rewrite testdata/java/main-example/example.jar from its sources")

const exampleJar = "../../testdata/java/main-example/example.jar"

// signatures lists "class.method desc" of every class in a jar or class directory.
func signatures(t *testing.T, path string) []string {
	t.Helper()
	cp, err := classpath.Open(context.Background(), classpath.Config{NoJDK: true, Sources: []classpath.Source{{Path: path}}})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	var out []string
	for _, c := range cp.Classes {
		f, err := classfile.Parse(c.Data)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range f.Methods {
			out = append(out, f.Name+"."+m.Name+m.Desc)
		}
	}
	slices.Sort(out)
	return out
}

// TestExampleJarUpToDate checks that the bundled example jar, which the README's
// main command analyses, holds the classes and methods its sources compile to.
func TestExampleJarUpToDate(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "main-example"), javatest.Release(17))
	if *update {
		javatest.Jar(t, classes, exampleJar)
	}
	got, want := signatures(t, exampleJar), signatures(t, classes)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s is stale: run go test ./cmd/jcg-lsp -run TestExampleJarUpToDate -update\njar:     %v\nsources: %v", exampleJar, got, want)
	}
}

// TestAnalyzeExample runs the README's main command and checks its table: one row
// per level, main's class reached, and the reflective sites of the example resolved
// at the levels that can resolve them.
func TestAnalyzeExample(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"analyze", exampleJar}, &out, &errb); err != nil {
		t.Fatalf("analyze: %v\n%s", err, errb.String())
	}
	text := out.String()
	for _, want := range []string{"Behaved-CLs", "Encap-Respect", "Correct-Cast", "Correct-String", "Correct-Env", "loading t/r/u"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

// TestAnalyzeAllAlgorithms checks --algo all: one table per algorithm, from the
// least precise, each with the precision column; without the JDK, so that XTA's
// and TFA's runs take milliseconds.
func TestAnalyzeAllAlgorithms(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"analyze", "--algo", "all", "--no-jdk", "--levels", "2,6", exampleJar}, &out, &errb); err != nil {
		t.Fatalf("analyze: %v\n%s", err, errb.String())
	}
	text := out.String()
	last := -1
	for _, algo := range []string{"CHA call graph", "RTA call graph", "XTA call graph", "TFA call graph"} {
		i := strings.Index(text, algo)
		if i <= last {
			t.Fatalf("no %q after the previous table:\n%s", algo, text)
		}
		last = i
	}
	if n := strings.Count(text, "app calls <=1"); n != 8 { // header and legend of each table
		t.Errorf("%d mentions of the precision column, want 8:\n%s", n, text)
	}
}

func TestCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"analyze"}, "empty class path"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"analyze", "--algo", "vta", exampleJar}, "unknown algorithm"},
		{[]string{"analyze", "--main", "no.Such", exampleJar}, "not on the class path"},
		{[]string{"callgraph", "--level", "9", "--out", "-", exampleJar}, "unknown assumption level"},
		{[]string{"callgraph", "--format", "svg", "--out", "-", exampleJar}, "unknown format"},
		{[]string{"index", "--jdk", "/nonexistent/jdk"}, "/nonexistent/jdk"},
	} {
		var out, errb bytes.Buffer
		err := run(context.Background(), tc.args, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: got %v, want an error containing %q", tc.args, err, tc.msg)
		}
	}
}

func TestCallgraphJCG(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cg.json")
	var so, se bytes.Buffer
	if err := run(context.Background(), []string{"callgraph", "--format", "jcg", "--level", "correct-string", "--app-only", "--out", out, exampleJar}, &so, &se); err != nil {
		t.Fatalf("%v\n%s", err, se.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// main is reachable and calls PluginLoader.loadBuiltin (Main.java line 44).
	for _, want := range []string{`"name":"main","declaringClass":"Lexample/Main;"`, `"name":"loadBuiltin","declaringClass":"Lexample/plugin/PluginLoader;"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("JCG output lacks %s", want)
		}
	}
	// The same, gzip-compressed, for a name ending in .gz.
	gz := filepath.Join(dir, "cg.json.gz")
	if err := run(context.Background(), []string{"callgraph", "--format", "jcg", "--level", "correct-string", "--app-only", "--out", gz, exampleJar}, &so, &se); err != nil {
		t.Fatalf("%v\n%s", err, se.String())
	}
	f, err := os.Open(gz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", gz, err)
	}
	if unzipped, err := io.ReadAll(zr); err != nil || !bytes.Equal(unzipped, b) {
		t.Errorf("%s: %d bytes (%v), not the %d bytes of %s", gz, len(unzipped), err, len(b), out)
	}
}

func TestSpecImportTamiFlex(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "refl.log")
	os.WriteFile(log, []byte("Class.forName;example.plugin.builtin.AuditPlugin;example.plugin.PluginLoader.loadConfigured;36;;\n"), 0o644)
	out := filepath.Join(dir, "jcg-spec.txt")
	os.WriteFile(out, []byte("# mine\nexample.Main.main @ 40 => example.Other\n"), 0o644)
	var so, se bytes.Buffer
	if err := run(context.Background(), []string{"spec", "import-tamiflex", "--out", out, log}, &so, &se); err != nil {
		t.Fatalf("%v\n%s", err, se.String())
	}
	b, _ := os.ReadFile(out)
	want := "# mine\nexample.Main.main @ 40 => example.Other\nexample.plugin.PluginLoader.loadConfigured @ 36 => example.plugin.builtin.AuditPlugin\n"
	if string(b) != want {
		t.Errorf("file:\n%s\nwant:\n%s", b, want)
	}
	// Importing again adds nothing.
	if err := run(context.Background(), []string{"spec", "import-tamiflex", "--out", out, log}, &so, &se); err != nil {
		t.Fatal(err)
	}
	if b2, _ := os.ReadFile(out); string(b2) != want {
		t.Errorf("second import changed the file:\n%s", b2)
	}
}

// TestCallgraphJCGReflection checks the JCG rule for calls that reach a method of
// another name: res.Main.invoked's Method.invoke (in
// testdata/java/cg/resolution/src/res/Main.java) resolves at Correct-String to
// Circle.area, written as an extra call site on the same line named "area"; at
// Behaved-CLs it may call any method, Circle's, Square's and Hidden's area among
// them, which must be one site (JCG judges a line and name by one site). No two
// sites of a method share their offset and name.
func TestCallgraphJCGReflection(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "cg/resolution"), javatest.Release(17))
	for level, want := range map[string][]string{"4": {"Lres/Circle;"}, "1": {"Lres/Circle;", "Lres/Hidden;", "Lres/Square;"}} {
		out := filepath.Join(t.TempDir(), "cg.json")
		var so, se bytes.Buffer
		if err := run(context.Background(), []string{"callgraph", "--format", "jcg", "--level", level, "--app-only", "--out", out, classes}, &so, &se); err != nil {
			t.Fatalf("%v\n%s", err, se.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var cg struct {
			ReachableMethods []struct {
				Method struct {
					Name, DeclaringClass string
				}
				CallSites []struct {
					DeclaredTarget struct{ Name, DeclaringClass string }
					Line, PC       int
					Targets        []struct{ Name, DeclaringClass string }
				}
			}
		}
		if err := json.Unmarshal(b, &cg); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range cg.ReachableMethods {
			type at struct {
				pc   int
				name string
			}
			seen := map[at]bool{}
			for _, cs := range m.CallSites {
				if k := (at{cs.PC, cs.DeclaredTarget.Name}); seen[k] {
					t.Errorf("level %s: %s.%s has two call sites at pc %d named %s", level, m.Method.DeclaringClass, m.Method.Name, cs.PC, cs.DeclaredTarget.Name)
				} else {
					seen[k] = true
				}
			}
			if m.Method.DeclaringClass != "Lres/Main;" || m.Method.Name != "invoked" {
				continue
			}
			var invokeLine int
			for _, cs := range m.CallSites {
				if cs.DeclaredTarget.Name == "invoke" {
					invokeLine = cs.Line
				}
			}
			for _, cs := range m.CallSites {
				if cs.DeclaredTarget.Name == "area" && cs.Line == invokeLine && invokeLine > 0 {
					for _, tg := range cs.Targets {
						if tg.Name == "area" && slices.Contains(want, tg.DeclaringClass) {
							got = append(got, tg.DeclaringClass)
						}
					}
				}
			}
		}
		if slices.Sort(got); !slices.Equal(got, want) {
			t.Errorf("level %s: the call site named area on the invoke line of res.Main.invoked has area of %v, want %v (each once)", level, got, want)
		}
	}
}

// TestCallgraphFormatsAgree checks the JCG writer against the JSON lines writer, two
// separate walks of one graph: every edge is a target of a site of its caller in
// the JCG output and nothing else is, and each site's targets are sorted and
// unique. The program (testdata/java/cg/resolution) has reflective calls, whose
// edges become extra sites named after their callees.
func TestCallgraphFormatsAgree(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "cg/resolution"), javatest.Release(17))
	dir := t.TempDir()
	outs := map[string]string{}
	for _, format := range []string{"jcg", "json"} {
		outs[format] = filepath.Join(dir, "cg."+format)
		var so, se bytes.Buffer
		if err := run(context.Background(), []string{"callgraph", "--no-jdk", "--level", "4", "--format", format, "--out", outs[format], classes}, &so, &se); err != nil {
			t.Fatalf("%s: %v\n%s", format, err, se.String())
		}
	}
	type jcgM struct {
		Name, DeclaringClass, ReturnType string
		ParameterTypes                   []string
	}
	key := func(m jcgM) string {
		return m.DeclaringClass + "." + m.Name + "(" + strings.Join(m.ParameterTypes, "") + ")" + m.ReturnType
	}
	// A JSON name is class.name+descriptor: the same key through the JCG form.
	keyOf := func(name string) string {
		i := strings.Index(name, "(")
		j := strings.LastIndex(name[:i], ".")
		params, ret, err := classfile.ParseMethodDescriptor(name[i:])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return key(jcgM{Name: name[j+1 : i], DeclaringClass: "L" + name[:j] + ";", ReturnType: ret, ParameterTypes: params})
	}
	fromJSON := map[string]bool{}
	data, err := os.ReadFile(outs["json"])
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Edge *struct{ Caller, Callee string }
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Edge != nil && rec.Edge.Callee != "<NativeMethod>" {
			fromJSON[keyOf(rec.Edge.Caller)+" -> "+keyOf(rec.Edge.Callee)] = true
		}
	}
	var cg struct {
		ReachableMethods []struct {
			Method    jcgM
			CallSites []struct{ Targets []jcgM }
		}
	}
	data, err = os.ReadFile(outs["jcg"])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &cg); err != nil {
		t.Fatal(err)
	}
	fromJCG := map[string]bool{}
	for _, m := range cg.ReachableMethods {
		for _, s := range m.CallSites {
			var ks []string
			for _, tg := range s.Targets {
				ks = append(ks, key(tg))
				fromJCG[key(m.Method)+" -> "+key(tg)] = true
			}
			if !slices.IsSortedFunc(s.Targets, func(a, b jcgM) int { return strings.Compare(a.DeclaringClass+a.Name, b.DeclaringClass+b.Name) }) || len(slices.Compact(slices.Clone(ks))) != len(ks) {
				t.Errorf("%s: targets not sorted and unique: %v", key(m.Method), ks)
			}
		}
	}
	if len(fromJSON) < 20 {
		t.Fatalf("only %d edges: the program did not analyse", len(fromJSON))
	}
	for e := range fromJSON {
		if !fromJCG[e] {
			t.Errorf("edge %s is not in the JCG output", e)
		}
	}
	for e := range fromJCG {
		if !fromJSON[e] {
			t.Errorf("JCG output has %s, which is no edge", e)
		}
	}
}

// TestMemoryLimit: the server keeps its 1.3 GiB soft limit, whichever way it is
// started; the batch jobs get 2 GiB.
func TestMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		args []string
		mib  int64
	}{
		{nil, 1300}, {[]string{"--stdio"}, 1300}, {[]string{"serve", "--debug", "localhost:0"}, 1300},
		{[]string{"analyze", "x.jar"}, 2000}, {[]string{"callgraph"}, 2000}, {[]string{"why"}, 2000},
	} {
		if got := memoryLimit(c.args) >> 20; got != c.mib {
			t.Errorf("memoryLimit(%q) = %d MiB, want %d", c.args, got, c.mib)
		}
	}
}
