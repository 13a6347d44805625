package incremental

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

var propSteps = flag.Int("incremental.steps", 200, "random steps of TestIncrementalEqualsScratch (the issue asks for at least 200; more with the flag)")
var propSeed = flag.Uint64("incremental.seed", 1, "seed of TestIncrementalEqualsScratch")

// propProgram is a program whose plug-in classes nothing references statically, so
// any of them can be added, modified, deleted or renamed and the rest still compiles.
// Plug-ins may extend p.Base, whose dispatches Core reaches (Base.poke), and gain
// or lose members: private helpers, an override of Base.hook, fields (a static one
// with an initialiser, so a <clinit>); Base may gain or lose a public method,
// later, that plug-ins override.
type propProgram struct {
	plugins map[string]*plugin
	core    string // the source of p.Core
	later   bool   // Base declares later(), which poke calls
	lib     int    // the version of the library jar
	next    int
	rng     *rand.Rand
}

// plugin is the shape of one plug-in class; its source is made from it (source).
type plugin struct {
	implements, extends, hook, fields bool
	native                            bool     // declares a native method, which run calls (level 6: outside the JDK model)
	serial                            bool     // implements java.io.Serializable
	clinit                            bool     // has a static initialiser that loads a class by name
	helpers                           int      // private helpers h0..h<n-1>, each called from run
	body                              []string // run's statements
}

// coreSource returns a p.Core whose methods call each other and lib.L at random, and
// pass p.Loader.load a plug-in's name or a system property: the same members every
// time, so an edit of Core changes method bodies only, the change
// analysis.Analyzer.Update handles in place, visiting Loader.load (unchanged) again
// when the names its forName receives from its callers (Correct-String's value
// analysis follows a package-private method's parameter to them) change.
func (p *propProgram) coreSource() string {
	var b strings.Builder
	b.WriteString("package p;\npublic class Core {\n")
	for i := range 3 {
		fmt.Fprintf(&b, "  public void k%d() {", i)
		for j := range 3 {
			if j != i && p.rng.IntN(2) == 0 {
				fmt.Fprintf(&b, " k%d();", j)
			}
		}
		if p.rng.IntN(2) == 0 {
			b.WriteString(" new lib.L().l();")
		}
		switch p.rng.IntN(3) {
		case 0:
			fmt.Fprintf(&b, " Loader.load(\"p.P%d\");", p.rng.IntN(p.next+1))
		case 1:
			b.WriteString(" Loader.load(System.getProperty(\"y\"));")
		}
		if i == 0 {
			b.WriteString(" Base.poke(new Base());")
		}
		b.WriteString(" }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func (p *propProgram) newPlugin() *plugin {
	pl := &plugin{implements: p.rng.IntN(2) == 0, extends: p.rng.IntN(2) == 0, hook: p.rng.IntN(2) == 0,
		fields: p.rng.IntN(2) == 0, helpers: p.rng.IntN(3)}
	for range p.rng.IntN(4) {
		switch p.rng.IntN(10) {
		case 0:
			pl.body = append(pl.body, fmt.Sprintf("new Core().k%d();", p.rng.IntN(3)))
		case 1:
			pl.body = append(pl.body, fmt.Sprintf("try { Class.forName(\"p.P%d\").getDeclaredConstructor().newInstance(); } catch (Exception e) {}", p.rng.IntN(p.next+1)))
		case 2:
			pl.body = append(pl.body, "try { Class.forName(System.getProperty(\"x\")); } catch (Exception e) {}")
		case 3:
			pl.body = append(pl.body, fmt.Sprintf("helper%d();", p.rng.IntN(2)))
		case 4:
			// A lambda and a method reference, run through the interface.
			pl.body = append(pl.body, "{ Runnable r = () -> helper0(); r.run(); I i = this::helper1; i.run(); }")
		case 5:
			// Reachable code that sets the property Core and the plug-ins read:
			// Correct-Env takes it as unset only while no such code is reachable.
			pl.body = append(pl.body, fmt.Sprintf("System.setProperty(\"x\", \"p.P%d\");", p.rng.IntN(p.next+1)))
		case 6:
			pl.body = append(pl.body, "try { Object o = Class.forName(\"p.Core\").getMethod(\"k1\").invoke(new Core()); } catch (Exception e) {}")
		case 7:
			// A thread runs a method reference (Thread.start's native calls run).
			pl.body = append(pl.body, "new Thread(this::helper0).start();")
		case 8:
			// A constructor reference, and casts of what it supplies.
			pl.body = append(pl.body, "{ java.util.function.Supplier<Object> s = Core::new; Object o = s.get(); if (o instanceof Runnable) ((Runnable) o).run(); ((Core) o).k2(); }")
		case 9:
			pl.body = append(pl.body, fmt.Sprintf("try { Class.forName(\"p.P%d\", true, getClass().getClassLoader()); } catch (Exception e) {}", p.rng.IntN(p.next+1)))
		}
	}
	return pl
}

func (pl *plugin) source(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p;\npublic class %s", name)
	if pl.extends {
		b.WriteString(" extends Base")
	}
	switch {
	case pl.implements && pl.serial:
		b.WriteString(" implements I, java.io.Serializable")
	case pl.implements:
		b.WriteString(" implements I")
	case pl.serial:
		b.WriteString(" implements java.io.Serializable")
	}
	b.WriteString(" {\n")
	if pl.clinit {
		b.WriteString("  static { try { Class.forName(\"p.Core\"); } catch (Exception e) {} }\n")
	}
	if pl.fields {
		b.WriteString("  int f;\n  static Object s = new Core();\n")
	}
	b.WriteString("  public void run() {\n")
	for _, st := range pl.body {
		b.WriteString("    " + st + "\n")
	}
	for i := range pl.helpers {
		fmt.Fprintf(&b, "    h%d();\n", i)
	}
	if pl.native {
		b.WriteString("    nat();\n")
	}
	b.WriteString("  }\n  void helper0() { new Core().k0(); }\n  void helper1() {}\n")
	for i := range pl.helpers {
		fmt.Fprintf(&b, "  private void h%d() { new Core().k%d(); }\n", i, i%3)
	}
	if pl.native {
		b.WriteString("  public native void nat();\n")
	}
	if pl.hook {
		// An override of Base.hook when the plug-in extends Base; reached only
		// through the dispatch in Base.poke.
		b.WriteString("  public void hook() { helper1(); }\n  public void later() { new Core().k2(); }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func (p *propProgram) baseSource() string {
	if p.later {
		return "package p;\npublic class Base {\n  public void hook() {}\n  public void later() {}\n" +
			"  static void poke(Base b) { b.hook(); b.later(); }\n}\n"
	}
	return "package p;\npublic class Base {\n  public void hook() {}\n  static void poke(Base b) { b.hook(); }\n}\n"
}

func (p *propProgram) sources() map[string]string {
	srcs := map[string]string{
		"p/I.java":    "package p;\npublic interface I { void run(); }\n",
		"p/Core.java": p.core,
		"p/Base.java": p.baseSource(),
		"p/Loader.java": "package p;\nclass Loader {\n  static void load(String n) {\n" +
			"    try { Class.forName(n).getDeclaredConstructor().newInstance(); } catch (Exception e) {}\n  }\n}\n",
		"p/Main.java": `package p;
public class Main {
  public static void main(String[] args) throws Exception {
    I i = (I) Class.forName(args[0]).getDeclaredConstructor().newInstance();
    i.run();
  }
}
`,
	}
	for name, pl := range p.plugins {
		srcs["p/"+name+".java"] = pl.source(name)
	}
	return srcs
}

// propStep is one random step: a new version of the program to compile (build,
// the index of its sources), a specification file to write (writeSpec), or a
// library jar to swap in (lib >= 0).
type propStep struct {
	what      string
	build     bool
	version   int
	writeSpec bool
	spec      []byte
	lib       int
}

// step draws the next random step and applies it to the program.
func (p *propProgram) step() propStep {
	rng := p.rng
	names := slices.Sorted(maps.Keys(p.plugins))
	st := propStep{build: true, lib: -1}
	// toggle flips a flag of a random plug-in's shape.
	toggle := func(what string, flag func(*plugin) *bool) {
		name := names[rng.IntN(len(names))]
		f := flag(p.plugins[name])
		*f = !*f
		st.what = fmt.Sprintf("%s %s: %v", name, what, *f)
	}
	switch k := rng.IntN(15); {
	case k == 0 || len(names) == 0:
		name := fmt.Sprintf("P%d", p.next)
		p.next++
		p.plugins[name] = p.newPlugin()
		st.what = "add " + name
	case k == 1:
		name := names[rng.IntN(len(names))]
		p.plugins[name] = p.newPlugin()
		st.what = "modify " + name
	case k == 8:
		name := names[rng.IntN(len(names))]
		pl := p.plugins[name]
		if pl.helpers > 0 && rng.IntN(2) == 0 {
			pl.helpers--
			st.what = "remove a private helper of " + name
		} else {
			pl.helpers++
			st.what = "add a private helper to " + name
		}
	case k == 9:
		name := names[rng.IntN(len(names))]
		pl := p.plugins[name]
		pl.hook = !pl.hook
		st.what = fmt.Sprintf("%s declares hook and later: %v (extends Base: %v)", name, pl.hook, pl.extends)
	case k == 10:
		toggle("declares fields", func(pl *plugin) *bool { return &pl.fields })
	case k == 12:
		toggle("declares a native method", func(pl *plugin) *bool { return &pl.native })
	case k == 13:
		toggle("is serializable", func(pl *plugin) *bool { return &pl.serial })
	case k == 14:
		toggle("has a static initialiser", func(pl *plugin) *bool { return &pl.clinit })
	case k == 11:
		p.later = !p.later
		st.what = fmt.Sprintf("Base declares later: %v", p.later)
	case k == 2:
		name := names[rng.IntN(len(names))]
		delete(p.plugins, name)
		st.what = "delete " + name
	case k == 3:
		old := names[rng.IntN(len(names))]
		name := fmt.Sprintf("P%d", p.next)
		p.next++
		p.plugins[name] = p.plugins[old]
		delete(p.plugins, old)
		st.what = "rename " + old + " to " + name
	case k == 4:
		var b bytes.Buffer
		for _, n := range names {
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, "p.Main.main @ 4 => p.%s\n", n)
			}
		}
		st.build, st.writeSpec, st.spec = false, true, b.Bytes()
		st.what = "spec: " + strings.ReplaceAll(b.String(), "\n", "; ")
	case k == 5:
		st.what = "rewrite identical"
	case k == 7:
		p.core = p.coreSource()
		st.what = "edit Core"
	case k == 6:
		p.lib = 1 - p.lib
		st.build, st.lib = false, p.lib
		st.what = fmt.Sprintf("swap jar to v%d", p.lib)
	}
	return st
}

// syncDir makes dst hold exactly the class files of src, rewriting every file (even
// identical ones) and returning the paths touched.
func syncDir(t *testing.T, src, dst string) []string {
	t.Helper()
	var touched []string
	want := map[string]bool{}
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		want[rel] = true
		data, _ := os.ReadFile(p)
		q := filepath.Join(dst, rel)
		os.MkdirAll(filepath.Dir(q), 0o755)
		if err := os.WriteFile(q, data, 0o644); err != nil {
			t.Fatal(err)
		}
		touched = append(touched, q)
		return nil
	})
	filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dst, p)
		if !want[rel] {
			os.Remove(p)
			touched = append(touched, p)
		}
		return nil
	})
	return touched
}

// TestIncrementalEqualsScratch applies random steps (add, modify, delete, rename a
// plug-in class, add or remove a plug-in's private helper, override or field, add
// or remove a public method of its superclass, edit the specification file, swap a
// jar, touch without change, edit the bodies of a class) to hosts at three levels,
// driven as the server drives its host, and checks after each that every host's
// snapshot equals a from-scratch analysis and that a build ran exactly when class
// bytes or the specification changed. It logs how many builds were updates in
// place (analysis.Analyzer.Update): the issue asks for 95 %.
//
// More hosts run the algorithms that analyse anew on a change of classes: the
// server's default, TFA (at Correct-Env and Correct-JDK), XTA, and RTA on a
// library. Each analyses with an analyzer and index that inherit from the previous
// ones (Analyzer.Inherit, index.Rebuild, values.NewIndexAfter) and publishes its
// CHA companion updated in place first (Request.Interim): after each step the
// published graph equals a new analysis, each interim graph a new CHA analysis of
// the edited program, and every method the published graph reaches is in the
// interim one (the interim diagnostics are a sound superset of those that follow).
func TestIncrementalEqualsScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(*propSeed, 42))
	prog := &propProgram{plugins: map[string]*plugin{}, rng: rng}
	for range 3 {
		name := fmt.Sprintf("P%d", prog.next)
		prog.next++
		prog.plugins[name] = prog.newPlugin()
	}
	prog.core = prog.coreSource()
	// The steps are drawn first, and every version of the program compiled at once
	// (javacBatch): a javac per step made the test's time that of 200 JVM starts.
	steps := make([]propStep, *propSteps)
	versions := []map[string]string{prog.sources()}
	for i := range steps {
		steps[i] = prog.step()
		if steps[i].build {
			steps[i].version = len(versions)
			versions = append(versions, prog.sources())
		}
	}
	out := t.TempDir()
	specPath := filepath.Join(t.TempDir(), "spec.txt")
	// Two versions of a library jar with the same API.
	libs := [2]string{t.TempDir(), t.TempDir()}
	javac(t, map[string]string{"lib/L.java": "package lib; public class L { public void l() {} }"}, libs[0])
	javac(t, map[string]string{"lib/L.java": `package lib; public class L { public void l() { m(); } void m() {
  try { Class.forName(System.getenv("X")).getDeclaredConstructor().newInstance(); } catch (Exception e) {} } }`}, libs[1])
	jar := filepath.Join(t.TempDir(), "lib.jar")
	javatest.Jar(t, libs[0], jar)
	compiled := javacBatch(t, versions, libs[0])
	syncDir(t, compiled[0], out)
	st := testSettings(t, out, specPath)
	st.Config.Sources = append(st.Config.Sources, classpath.Source{Path: jar, Origin: classpath.Library})
	st.Options.LibraryMode = false
	// One host per level, so that every level is updated in place when it can be,
	// and the default algorithm's hosts (above).
	type propHost struct {
		st       Settings
		m        *testHost
		interim  []string // the current build's interim graph (TFA), one or none
		interims int
	}
	var hosts []*propHost
	for _, c := range []struct {
		algo  callgraph.Algorithm
		level callgraph.Level
	}{{callgraph.CHA, callgraph.CorrectJDK}, {callgraph.CHA, callgraph.BehavedCLs}, {callgraph.CHA, callgraph.CorrectString}, {callgraph.CHA, callgraph.CorrectEnv},
		{callgraph.TFA, callgraph.CorrectEnv}, {callgraph.TFA, callgraph.CorrectJDK}, {callgraph.XTA, callgraph.CorrectJDK}, {callgraph.RTA, callgraph.EncapRespect}, {callgraph.CHA, callgraph.CorrectCast}} {
		ph := &propHost{st: st}
		ph.st.Options.Level, ph.st.Options.Algorithm = c.level, c.algo
		// Two hosts analyse a library (entry points: what clients can call), whose
		// member edits analyse anew (update_members.go).
		ph.st.Options.LibraryMode = c.level == callgraph.CorrectCast || c.algo == callgraph.RTA
		ph.m = newTestHost(t, ph.st)
		if !c.algo.UpdatesInPlace() {
			ph.m.interim = func(set []*Snapshot) {
				if len(set) != 1 || set[0].Options.Algorithm != callgraph.CHA || set[0].Graph == nil {
					t.Errorf("interim snapshots %+v", set)
					return
				}
				ms := set[0].Hierarchy().Methods()
				ph.interim = append(ph.interim, graphText(func(id int32) string { return nodeName(ms, id) }, set[0].Graph))
			}
		}
		hosts = append(hosts, ph)
	}

	for step, ps := range steps {
		var touched []string
		what := ps.what
		switch {
		case ps.writeSpec:
			if err := os.WriteFile(specPath, ps.spec, 0o644); err != nil {
				t.Fatal(err)
			}
			touched = append(touched, specPath)
		case ps.lib >= 0:
			javatest.Jar(t, libs[ps.lib], jar)
			touched = append(touched, jar)
		default:
			touched = syncDir(t, compiled[ps.version], out)
		}
		spec := ReadSpecFile(specPath).Meaning()
		for _, ph := range hosts {
			m := ph.m
			ph.interim = nil
			before, release := m.acquire()
			ev, err := m.update(context.Background(), ChangeSet{Paths: touched})
			if err != nil {
				t.Fatalf("step %d (%s): %v", step, what, err)
			}
			s, releaseNew := m.acquire()
			// What really changed: the classes' bytes and the specification file's
			// meaning (the generator writes no comments: bytes and meaning change
			// together).
			added, changed, removed := classDiff(before, s)
			noChange := len(added)+len(changed)+len(removed) == 0 && spec == before.Spec.Meaning()
			if ev.Published() == noChange {
				t.Errorf("step %d (%s): published=%v but no change=%v", step, what, ev.Published(), noChange)
			}
			if !ev.Published() && s != before {
				t.Errorf("step %d (%s): a snapshot was published without an event", step, what)
			}
			l, algo := ph.st.Options.Level, ph.st.Options.Algorithm
			got, want := snapshotText(t, s, l), scratchText(t, ph.st, l)
			if got != want {
				t.Fatalf("step %d (%s) %s at level %v: incremental\n%s\nscratch\n%s", step, what, algo, l, got, want)
			}
			if len(ph.interim) > 0 {
				ph.interims++
				cha := ph.st
				cha.Options.Algorithm = callgraph.CHA
				if want := scratchText(t, cha, l); ph.interim[0] != want {
					t.Fatalf("step %d (%s) %s at level %v: interim\n%s\nnew CHA analysis\n%s", step, what, algo, l, ph.interim[0], want)
				}
				if missing := notReachedIn(got, ph.interim[0]); len(missing) > 0 {
					t.Errorf("step %d (%s) %s at level %v: the interim graph misses methods the published one reaches: %v", step, what, algo, l, missing)
				}
			}
			release()
			releaseNew()
			t.Logf("step %d: %s: %s level %d snapshot %d, in place %v, interim %v", step, what, algo, l, s.ID, ev.InPlace, len(ph.interim) > 0)
		}
	}
	for _, ph := range hosts {
		t.Logf("%s at %v (library mode %v): %d of %d builds were updates in place, %d had an interim graph",
			ph.st.Options.Algorithm, ph.st.Options.Level, ph.st.Options.LibraryMode, ph.m.inPlace.Load(), ph.m.builds.Load(), ph.interims)
	}
}

// notReachedIn returns the reachable methods of graphText text want that graphText
// text in does not list.
func notReachedIn(want, in string) []string {
	has := map[string]bool{}
	for line := range strings.Lines(in) {
		if strings.HasPrefix(line, "R ") {
			has[line] = true
		}
	}
	var missing []string
	for line := range strings.Lines(want) {
		if strings.HasPrefix(line, "R ") && !has[line] {
			missing = append(missing, strings.TrimSpace(line[2:]))
		}
	}
	return missing
}
