package analysis

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/config"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// TestUnsetProperties checks Correct-Env's reading of the system properties on the
// loading sites of program cg/environment, with the environment a run would give
// the value analyses once no dynamic call may write every property (today's JDK
// still has such calls, see that program's comment): envprops.late is written by
// Setter.configure, nothing is configured.
//   - envprops.plugin and envprops.list are unset: their sites load nothing (the
//     list through split), complete and empty, and say which property;
//   - envprops.other is unset, so getProperty's default applies: envprops.Builtin;
//   - envprops.late is written by reachable code and user.name set by the JVM:
//     unknown.
//
// At Correct-String the environment is unknown: every one of these is unknown.
func TestUnsetProperties(t *testing.T) {
	ix := programsIndex(t, "cg/environment")
	h := ix.Hierarchy()
	main := h.Class("envprops/Main").Method("main", "([Ljava/lang/String;)V")
	f := ix.Facts(main)
	var read []string
	env := values.Environment{
		Machine:   config.SetByJVM,
		Written:   func(k string) bool { return k == "envprops.late" || k == values.SecurityKey+"envprops.secwritten" },
		ReadUnset: func(k string) { read = append(read, k) },
		Security: func(k string) (string, bool) {
			if k == "envprops.provider" {
				return "envprops.Builtin", true
			}
			return "", false
		},
	}
	type want struct {
		complete bool
		classes  []string
		unset    string
	}
	byLine := map[int32]want{
		47: {false, nil, ""},
		51: {true, nil, "envprops.plugin"},
		57: {true, nil, "envprops.list"},
		60: {true, []string{"envprops/Builtin"}, ""},
		63: {false, nil, ""},
	}
	for _, lv := range []callgraph.Level{callgraph.CorrectString, callgraph.CorrectEnv, callgraph.CorrectJDK} {
		va := values.New(ix, values.NewIndex(ix), lv, env)
		seen := 0
		for i := range f.Calls {
			c := &f.Calls[i]
			if values.LoadingAPI(c) == "" {
				continue
			}
			w, ok := byLine[c.Line]
			if !ok {
				t.Fatalf("loading site at line %d: not in the test's table", c.Line)
			}
			seen++
			if !lv.UsesAnalysedEnvironment() {
				w = want{}
			}
			got := va.Loaded(main, c)
			var names []string
			for _, x := range got.Set {
				names = append(names, x.Name)
			}
			if got.Complete != w.complete || got.Complete && !slices.Equal(names, w.classes) {
				t.Errorf("%v line %d: complete %v %v (%s), want complete %v %v", lv, c.Line, got.Complete, names, got.Evidence, w.complete, w.classes)
			}
			if w.unset != "" && (!slices.Contains(got.Unset, w.unset) || !strings.Contains(got.Evidence, `"`+w.unset+`" is unset in the analysed environment`)) {
				t.Errorf("%v line %d: unset %v, evidence %q: want %s named", lv, c.Line, got.Unset, got.Evidence, w.unset)
			}
		}
		if seen != len(byLine) {
			t.Errorf("%v: %d loading sites in main, want %d", lv, seen, len(byLine))
		}
	}
	// With envprops.list written by reachable code, the names FileSystems' idiom
	// splits are not known: the site's points say why (the property), not that an
	// array element was computed somewhere.
	written := env
	written.Written = func(k string) bool { return k == "envprops.list" }
	for i := range f.Calls {
		c := &f.Calls[i]
		if c.Line != 57 || values.LoadingAPI(c) == "" {
			continue
		}
		got := values.New(ix, values.NewIndex(ix), callgraph.CorrectEnv, written).Loaded(main, c)
		var kinds []string
		for _, p := range got.Points {
			kinds = append(kinds, p.Kind)
		}
		if got.Complete || !slices.ContainsFunc(kinds, func(k string) bool {
			return strings.Contains(k, `"envprops.list"`) && strings.Contains(k, "which reachable code may set")
		}) || slices.Contains(kinds, "computed value") {
			t.Errorf("line 57 with envprops.list written: complete %v, points %q; want the written property as the source", got.Complete, kinds)
		}
	}
	// fromProperty's key is one of two literals its callers pass, both unset.
	helper := h.Class("envprops/Main").Method("fromProperty", "(Ljava/lang/String;)Ljava/lang/Object;")
	va := values.New(ix, values.NewIndex(ix), callgraph.CorrectEnv, env)
	for i, c := range ix.Facts(helper).Calls {
		if values.LoadingAPI(&c) == "" {
			continue
		}
		got := va.Loaded(helper, &ix.Facts(helper).Calls[i])
		if !got.Complete || len(got.Set) > 0 || !slices.Contains(got.Unset, "envprops.factory") || !slices.Contains(got.Unset, "envprops.handler") {
			t.Errorf("fromProperty's forName: complete %v %d classes, unset %v (%s): want complete, empty, both keys unset", got.Complete, len(got.Set), got.Unset, got.Evidence)
		}
	}
	// privileged(): envprops.action, read by an anonymous privileged action's run
	// through its captured key, is unset.
	priv := h.Class("envprops/Main").Method("privileged", "()V")
	for i := range ix.Facts(priv).Calls {
		c := &ix.Facts(priv).Calls[i]
		if values.LoadingAPI(c) == "" {
			continue
		}
		got := va.Loaded(priv, c)
		if !got.Complete || len(got.Set) > 0 || !slices.Contains(got.Unset, "envprops.action") {
			t.Errorf("privileged()'s forName: complete %v %d classes, unset %v (%s): want complete, empty, envprops.action unset", got.Complete, len(got.Set), got.Unset, got.Evidence)
		}
	}
	// security(): envprops.secure is unset, envprops.provider has its java.security
	// value, envprops.secwritten is written; with a -Djava.security.properties
	// file configured, each is unknown.
	sec := h.Class("envprops/Main").Method("security", "()V")
	override := env
	override.Values = map[string]string{"java.security.properties": "/etc/extra.security"}
	for _, e := range []values.Environment{env, override} {
		va := values.New(ix, values.NewIndex(ix), callgraph.CorrectEnv, e)
		var got []string
		for i := range ix.Facts(sec).Calls {
			c := &ix.Facts(sec).Calls[i]
			if values.LoadingAPI(c) == "" {
				continue
			}
			r := va.Loaded(sec, c)
			var names []string
			for _, x := range r.Set {
				names = append(names, x.Name)
			}
			got = append(got, fmt.Sprintf("%v%v", r.Complete, names))
			if r.Complete && len(r.Set) == 0 && !strings.Contains(r.Evidence, `security property "envprops.secure" is unset in the analysed environment`) {
				t.Errorf("security(): the unset site's evidence %q does not name envprops.secure", r.Evidence)
			}
		}
		want := "[true[] true[envprops/Builtin] false[]]"
		if e.Values != nil {
			want = "[false[] false[] false[]]"
		}
		if fmt.Sprint(got) != want {
			t.Errorf("security() with %v: sites %v, want %v", e.Values, got, want)
		}
	}
	for _, k := range []string{"envprops.plugin", "envprops.list", "envprops.other", "envprops.factory", "envprops.handler", "envprops.action",
		values.SecurityKey + "envprops.secure", "java.security.properties"} {
		if !slices.Contains(read, k) {
			t.Errorf("ReadUnset was not told of %s (told %v)", k, read)
		}
	}
	if slices.Contains(read, "envprops.late") || slices.Contains(read, "user.name") {
		t.Errorf("ReadUnset told of a written or machine property: %v", read)
	}
}

// TestPropertiesWrites checks what each use of System.getProperties() in
// testdata/java/propwrites writes: nothing for the methods named reads*, the keys
// below for puts*, every key for every*. Each such method takes the properties once.
func TestPropertiesWrites(t *testing.T) {
	a := New(programsIndex(t, "propwrites"))
	s := newSolver(context.Background(), a, Options{Level: callgraph.CorrectEnv, Algorithm: callgraph.CHA})
	s.env = s.newEnvRun(nil)
	puts := map[string][]string{
		"putsLiteral":       {"pw.one"},
		"putsThroughHelper": {"pw.two"},
		"putsThroughCast":   {"pw.three"},
	}
	// The anonymous classes' run methods, by class.
	anonymous := map[string]string{"pw/Main$1": "readsThroughAnonymousAction", "pw/Main$2": "everyAnonymousActionKept"}
	seen := 0
	for _, m := range a.h.Methods() {
		if m.Class.Name != "pw/Main" && anonymous[m.Class.Name] == "" {
			continue
		}
		f := a.prog.Facts(m)
		if f == nil {
			continue
		}
		for _, c := range f.Calls {
			if c.Ref.Class != "java/lang/System" || c.Ref.Name != "getProperties" {
				continue
			}
			seen++
			keys, every := s.propertiesWrites(site{caller: m, pc: c.PC, line: c.Line, call: -1})
			var want []string
			wantEvery := false
			name := m.Name
			if strings.HasPrefix(name, "lambda$") {
				name = strings.Split(name, "$")[1] // lambda$readsThroughLambda$0
			}
			if n := anonymous[m.Class.Name]; n != "" {
				name = n
			}
			switch {
			case strings.HasPrefix(name, "reads"):
			case strings.HasPrefix(name, "puts"):
				want = puts[name]
			case strings.HasPrefix(name, "every"):
				wantEvery = true
			case name == "fetch":
				// readsThroughReturn's: followed to its caller.
			default:
				t.Errorf("getProperties() in %s: not in the test's naming", m)
				continue
			}
			if every != wantEvery || !wantEvery && !slices.Equal(keys, want) {
				t.Errorf("%s: writes %v (every key: %v), want %v (every key: %v)", m, keys, every, want, wantEvery)
			}
			// A return followed to its callers makes its method a writer for dynamic
			// calls (an anonymous action's run is called by its bridge method).
			if _, watched := s.env.apis[m.ID]; watched != (m.Name == "readsThroughPublicReturn" || m.Name == "fetch" || anonymous[m.Class.Name] != "") {
				t.Errorf("%s: watched as a writer for dynamic calls: %v", m, watched)
			}
		}
	}
	if seen < 15 {
		t.Errorf("%d uses of getProperties() in pw.Main, want at least 15", seen)
	}
}

// TestSecurityWrites checks the writers of security properties
// (testdata/java/propwrites securityWrites): Security.setProperty with a literal key
// writes that key, with another key every security property and no system
// property; and that the run's environment takes java.security's values from the
// JDK's configuration.
func TestSecurityWrites(t *testing.T) {
	a := New(programsIndex(t, "propwrites"))
	s := newSolver(context.Background(), a, Options{Level: callgraph.CorrectEnv, Algorithm: callgraph.CHA})
	s.env = s.newEnvRun(nil)
	m := a.h.Class("pw/Main").Method("securityWrites", "(Ljava/lang/String;)V")
	var after []string
	for i, c := range a.prog.Facts(m).Calls {
		if c.Ref.Class != "java/security/Security" || c.Ref.Name != "setProperty" {
			continue
		}
		rm := s.resolveCall(&a.prog.Facts(m).Calls[i])
		if rm == nil {
			t.Fatal("Security.setProperty does not resolve: no JDK?")
		}
		envResolver{}.Resolve(s, site{caller: m, pc: c.PC, line: c.Line, call: int32(i)}, &a.prog.Facts(m).Calls[i], rm)
		after = append(after, fmt.Sprintf("%v/%v/%v", s.env.written[values.SecurityKey+"pw.sec"], s.env.anySecurity, s.env.any))
	}
	if want := "[true/false/false true/true/false]"; fmt.Sprint(after) != want {
		t.Errorf("after each Security.setProperty (pw.sec written/every security key/every system key): %v, want %v", after, want)
	}
	env := s.environment()
	if env.Security == nil {
		t.Fatal("the environment has no java.security")
	}
	if v, ok := env.Security("security.provider.1"); !ok || v != "SUN" {
		t.Errorf("java.security's security.provider.1 = %q, %v; want SUN (every JDK 17 has it)", v, ok)
	}
	if !env.Written(values.SecurityKey+"anything") || env.Written("anything") {
		t.Error("Written: every security key and no system key should be written")
	}
}

// TestLaunchReads checks the JDK's two reads of system properties that run while
// the JVM starts, before any code of the program: System.initPhase3 reads
// java.security.manager and loads the class it names; ClassLoader's
// initSystemClassLoader then reads java.system.class.loader likewise. Every key is
// taken as written by reachable code, as the whole JDK makes it today.
//   - Correct-Env: written, so unknown.
//   - Correct-JDK: the launch environment. Unset, both sites load nothing, and the
//     evidence says when the read runs. A configured value is that value.
//   - Correct-JDK with java.security.manager naming a class: the program's security
//     manager runs before initSystemClassLoader and may set
//     java.system.class.loader, so that read is unknown again. "allow" names none.
func TestLaunchReads(t *testing.T) {
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{{Path: minijdk.Dir(t), Origin: classpath.JDK}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	initPhase3 := h.Class("java/lang/System").Method("initPhase3", "()V")
	initLoader := h.Class("java/lang/ClassLoader").Method("initSystemClassLoader", "()Ljava/lang/ClassLoader;")
	if initPhase3 == nil || initLoader == nil {
		t.Fatal("the mini JDK has no System.initPhase3 or ClassLoader.initSystemClassLoader")
	}
	const (
		unknown = "unknown"
		none    = "none"
	)
	for _, tc := range []struct {
		level          callgraph.Level
		env            map[string]string
		phase3, loader string // the loaded class, none or unknown
	}{
		{callgraph.CorrectEnv, nil, unknown, unknown},
		{callgraph.CorrectJDK, nil, none, none},
		{callgraph.CorrectJDK, map[string]string{"java.security.manager": "java.lang.Thread"}, "java/lang/Thread", unknown},
		{callgraph.CorrectJDK, map[string]string{"java.security.manager": "allow", "java.system.class.loader": "java.lang.Thread"}, none, "java/lang/Thread"},
	} {
		env := values.Environment{Values: tc.env, Written: func(string) bool { return true }}
		va := values.New(ix, values.NewIndex(ix), tc.level, env)
		for _, m := range []*hierarchy.Method{initPhase3, initLoader} {
			want := tc.phase3
			if m == initLoader {
				want = tc.loader
			}
			f := ix.Facts(m)
			sites := 0
			for i := range f.Calls {
				c := &f.Calls[i]
				if values.LoadingAPI(c) == "" {
					continue
				}
				sites++
				got := va.Loaded(m, c)
				var names []string
				for _, x := range got.Set {
					names = append(names, x.Name)
				}
				switch {
				case want == unknown && got.Complete,
					want == none && (!got.Complete || len(names) > 0),
					want == none && tc.env == nil && !strings.Contains(got.Evidence, "unset in the analysed environment when the JVM starts"),
					want != unknown && want != none && (!got.Complete || !slices.Equal(names, []string{want})):
					t.Errorf("%v %v %s line %d: complete %v %v (%s), want %s", tc.level, tc.env, m.Name, c.Line, got.Complete, names, got.Evidence, want)
				}
			}
			if sites != 1 {
				t.Errorf("%s: %d loading sites, want 1", m.Name, sites)
			}
		}
	}
}

// TestPropertyWriters lists the sites of testdata/java/envwriters that may set
// every system property (its comment says why each call is or is not one): main's
// invoke of a method named by its arguments, at line 22, whose fallback holds
// System.setProperty; at Correct-Env also the native code the JDK model does not
// describe yet; nothing below Correct-Env.
func TestPropertyWriters(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "envwriters"))
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{
		{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: classes, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	a := New(ix)
	for _, lv := range []callgraph.Level{callgraph.CorrectString, callgraph.CorrectEnv, callgraph.CorrectJDK} {
		// The plain calls that may set every property: line 26's setProperty of
		// an unknown key, not line 20's of a known one.
		plain := map[string]bool{}
		g, err := a.Run(context.Background(), Options{Level: lv, Mains: []string{"ew.Main"},
			PlainPropertyWriter: func(caller callgraph.NodeID, pc, line int32, api *hierarchy.Method) {
				plain[fmt.Sprintf("%s line %d %s", a.h.Methods()[caller].Name, line, api.Name)] = true
			}})
		if err != nil {
			t.Fatal(err)
		}
		wantPlain := map[string]bool{"main line 26 setProperty": true}
		if !lv.UsesAnalysedEnvironment() {
			wantPlain = map[string]bool{}
		}
		if !maps.Equal(plain, wantPlain) {
			t.Errorf("%v: plain calls that may set every property %v, want %v", lv, plain, wantPlain)
		}
		ws := PropertyWriters(g, a.h)
		if !lv.UsesAnalysedEnvironment() {
			if ws != nil {
				t.Errorf("%v: %d property writers, want none listed below Correct-Env", lv, len(ws))
			}
			continue
		}
		// Below Correct-JDK native code may call back into any method with what
		// it holds: the NativeMethod node is a site too.
		var mainSite *PropertyWriter
		var sites []string
		for i, w := range ws {
			switch {
			case w.Caller == g.Native:
				sites = append(sites, "NativeMethod")
			case a.h.Methods()[w.Caller].Name == "main":
				sites = append(sites, fmt.Sprintf("main line %d", w.Line))
				mainSite = &ws[i]
			default:
				sites = append(sites, a.h.Methods()[w.Caller].String())
			}
		}
		want := []string{"main line 22"}
		if !lv.ModelsJDK() {
			want = append(want, "NativeMethod")
		}
		if !slices.Equal(sites, want) {
			t.Fatalf("%v: property writers %v, want %v", lv, sites, want)
		}
		if mainSite.Security() || !slices.ContainsFunc(mainSite.Writers, func(m *hierarchy.Method) bool {
			return m.Class.Name == "java/lang/System" && m.Name == "setProperty"
		}) {
			t.Errorf("%v: main's writers %v, want System.setProperty and no security property", lv, mainSite.Writers)
		}
		for _, b := range mainSite.Bundles {
			if r := g.Reasons[g.Bundles[b].Reason]; r.Kind != callgraph.KindReflection || r.Fallback == 0 {
				t.Errorf("%v: bundle %d's reason %+v, want a reflective fallback", lv, b, r)
			}
		}
	}
}
