package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestWhy asks about methods of testdata/java/cg/virtual (without the JDK): main
// calls pick (Main.java line 37), which returns an English, a French or a Base
// greeter; Silent is never instantiated, so under RTA from Encap-Respect on (where
// no native code instantiates anything) Silent.greet is not reachable.
func TestWhy(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "cg/virtual"), javatest.Release(17))
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--method", "virt.Main.pick"}, []string{
			"virt.Main.pick(I)Lvirt/Greeter; is reachable at Encap-Respect (TFA); a shortest path from an entry point:",
			"  1. virt.Main.main([Ljava/lang/String;)V (entry point)",
			"  2. virt.Main.pick(I)Lvirt/Greeter;",
			"       <- static call at line 37",
		}},
		{[]string{"--method", "virt.Main.main"}, []string{"virt.Main.main([Ljava/lang/String;)V is an entry point at Encap-Respect (TFA)."}},
		{[]string{"--algo", "rta", "--method", "virt.Silent.greet"}, []string{"virt.Silent.greet()Ljava/lang/String; is not reachable at Encap-Respect (RTA) from the 1 entry points."}},
	}
	for _, tc := range cases {
		args := append([]string{"why", "--no-jdk", "--level", "2"}, tc.args...)
		code, stdout, stderr, err := runCmd(append(args, classes)...)
		if err != nil || code != 0 {
			t.Fatalf("%v: exit %d, %v\n%s", tc.args, code, err, stderr)
		}
		got := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%v:\n%s\nwant:\n%s", tc.args, stdout, strings.Join(tc.want, "\n"))
		}
	}
	// A method the class path does not have is an error that names it.
	code, _, _, err := runCmd("why", "--no-jdk", "--method", "virt.Main.nope", classes)
	if code != 1 || err == nil || !strings.Contains(err.Error(), `"virt.Main.nope": no such method in virt.Main`) {
		t.Errorf("unknown method: exit %d, %v", code, err)
	}
	code, _, _, err = runCmd("why", "--no-jdk", classes)
	if code != 2 || err == nil || !strings.Contains(err.Error(), "--method") {
		t.Errorf("no --method: exit %d, %v", code, err)
	}
}

// TestWhyTop ranks the call sites of testdata/java/whytop (without the JDK),
// whose subtrees Main.java counts by hand: 7 reachable methods; main's call of big
// (line 10) brings 4 and leaves 3 without it, big's call of b1 (line 17) brings 2
// and leaves 5; main's call of shared (line 11) brings 1 but loses nothing, as big
// calls shared too. Without static calls only main is left. At Correct-JDK the
// NativeMethod node, the JVM, is reachable from the start as well: a root of its
// own, which left-out edges do not take away.
func TestWhyTop(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "whytop"), javatest.Release(17))
	code, stdout, stderr, err := runCmd("why", "--no-jdk", "--level", "2", "--top", "10", "--format", "json", classes)
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, stderr)
	}
	var rep topReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.Reachable != 7 || rep.Entries != 1 {
		t.Errorf("reachable %d from %d entries, want 7 from 1", rep.Reachable, rep.Entries)
	}
	// Without the JDK, every reachable method is the application's, in its one
	// class directory (and no native code reaches the NativeMethod node).
	if want := []moduleReach{{"application " + filepath.Base(classes), 7}}; !slices.Equal(rep.Modules, want) {
		t.Errorf("modules %+v, want %+v", rep.Modules, want)
	}
	type row struct {
		line                       int32
		subtree, without, together int
	}
	var got []row
	for _, s := range rep.Sites {
		got = append(got, row{s.Line, s.Subtree, s.Without, s.Together})
	}
	// Line 17's edges alone leave 5 methods, but big's call of b1 is gone with
	// line 10's already: the two together leave line 10's 3.
	want := []row{{10, 4, 3, 3}, {17, 2, 5, 3}}
	if len(got) < 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("top sites %v, want %v first", got, want)
	}
	found := false
	for i, r := range got {
		if i > 0 && r.together > got[i-1].together {
			t.Errorf("site %d's together %d exceeds the one above's, %d", i+1, r.together, got[i-1].together)
		}
		if r.line == 11 {
			found = true
			// shared is reached through big too, so main's call alone loses
			// nothing; with big's call already left out (line 10 is above it),
			// shared goes, and after small's at most main is left.
			if r.subtree != 1 || r.without != 7 || r.together > 1 {
				t.Errorf("main's call of shared: %+v, want subtree 1, without 7, together at most 1 (main)", r)
			}
		}
	}
	if !found || len(got) != 6 {
		t.Errorf("sites %v: want 6 with main's call of shared among them", got)
	}
	var static *kindReach
	for i := range rep.Kinds {
		if rep.Kinds[i].Kind == "static" {
			static = &rep.Kinds[i]
		}
	}
	if static == nil || static.Without != 1 || static.Bundles != 7 {
		t.Errorf("static calls left out: %+v, want 7 bundles and 1 method left", static)
	}
	_, stdout, _, _ = runCmd("why", "--no-jdk", "--level", "6", "--top", "1", "--format", "json", classes)
	rep = topReport{}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, k := range rep.Kinds {
		if k.Kind == "static" && (rep.Reachable != 8 || k.Without != 2) {
			t.Errorf("Correct-JDK: %d reachable, %d without static calls; want 8 and 2 (main and the JVM)", rep.Reachable, k.Without)
		}
	}
	// The text form says the same.
	_, text, _, _ := runCmd("why", "--no-jdk", "--top", "1", classes)
	if !strings.Contains(text, "reach.Main.main([Ljava/lang/String;)V (line 10, pc 3)") {
		t.Errorf("text:\n%s", text)
	}
	if code, _, _, err := runCmd("why", "--no-jdk", "--top", "1", "--method", "reach.Main.main", classes); code != 2 || err == nil {
		t.Errorf("--top with --method: exit %d, %v", code, err)
	}
}

// TestTopReasonText checks the text form's one line per reason: the resolver is
// left out where it repeats the kind, and a long citation is cut to its start.
func TestTopReasonText(t *testing.T) {
	long := strings.Repeat("hotspot share/runtime/thread.cpp ", 20)
	for _, c := range []struct {
		r    topReason
		want string
	}{
		{topReason{Kind: "lambda", Resolver: "lambda", Evidence: "LambdaMetafactory"}, "lambda: LambdaMetafactory"},
		{topReason{Kind: "reflection", Resolver: "serialization", Fallback: "Encap-Respect", Evidence: "readObject"},
			"reflection, serialization, fallback of Encap-Respect: readObject"},
		{topReason{Kind: "static"}, "static"},
	} {
		if got := c.r.text(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
	got := topReason{Kind: "callback", Evidence: long}.text()
	if n := len([]rune(got)); n > len("callback: ")+maxTextEvidence || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "callback: hotspot") {
		t.Errorf("long evidence: %d runes %q", n, got)
	}
}

// TestWhyTopPropertyWriters: at Correct-JDK, why --top lists the sites that may
// set every property; testdata/java/envwriters's main has one, at line 22 (its
// comment says why its other calls are not), among the JDK's own; not the native
// NativeLibraries.load, whose callback of System.setProperty the JDK model gives
// with its key. Below Correct-Env the list is absent: the environment is unknown
// there anyway.
func TestWhyTopPropertyWriters(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "envwriters"))
	code, stdout, stderr, err := runCmd("why", "--top", "1", "--format", "json", classes)
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, stderr)
	}
	var rep topReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	// With the JDK: its modules, java.base the largest, the application's
	// directory and the NativeMethod node, together all of the graph.
	sum, app := 0, 0
	for _, m := range rep.Modules {
		sum += m.Methods
		if strings.HasPrefix(m.Name, "application ") {
			app += m.Methods
		}
	}
	if len(rep.Modules) < 2 || rep.Modules[0].Name != "java.base" || sum != rep.Reachable || app == 0 {
		t.Errorf("modules %+v (sum %d, application %d), want java.base first, the application's, summing to %d", rep.Modules, sum, app, rep.Reachable)
	}
	var mainLines []int32
	for _, w := range rep.PropertyWriters {
		if strings.HasPrefix(w.Method, "jdk.internal.loader.NativeLibraries.load(") {
			// A native whose model names the one key it sets (sun.font.fontmanager).
			t.Errorf("NativeLibraries.load listed: %+v", w)
		}
		if strings.HasPrefix(w.Method, "ew.Main.main(") {
			mainLines = append(mainLines, w.Line)
			if !slices.Contains(w.Writers, "System.setProperty") || len(w.Reasons) == 0 {
				t.Errorf("main's site: %+v, want System.setProperty among its writers, and its reasons", w)
			}
		}
	}
	if !slices.Equal(mainLines, []int32{22}) {
		t.Errorf("main's sites that may set every property at lines %v, want [22] (of %d sites)", mainLines, len(rep.PropertyWriters))
	}
	// Line 26 sets a key nothing knows, line 20 a known one: only the first is a
	// plain call that may set every property, in the graph and in the what-if.
	for what, ws := range map[string][]writerSite{"graph": rep.PlainPropertyWriters, "what-if": rep.WhatIf.PlainPropertyWriters} {
		var lines []int32
		for _, w := range ws {
			if strings.HasPrefix(w.Method, "ew.Main.main(") {
				lines = append(lines, w.Line)
				if !slices.Equal(w.Writers, []string{"System.setProperty"}) || w.Security {
					t.Errorf("%s: main's plain writer %+v, want System.setProperty, no security property", what, w)
				}
			}
		}
		if !slices.Equal(lines, []int32{26}) {
			t.Errorf("%s: main's plain calls that may set every property at lines %v, want [26] (of %d)", what, lines, len(ws))
		}
	}
	checkWhatIf(t, rep)
	checkWhatIfOnly(t, classes, rep)
	_, text, _, _ := runCmd("why", "--top", "1", classes)
	if !strings.Contains(text, "Call sites that may set every property") || !strings.Contains(text, "ew.Main.main([Ljava/lang/String;)V (line 22, pc ") {
		t.Errorf("text form lacks the property writers or main's line 22:\n%s", text)
	}
	if !strings.Contains(text, "Plain calls that may set every property") || !strings.Contains(text, "ew.Main.main([Ljava/lang/String;)V (line 26, pc ") {
		t.Errorf("text form lacks the plain calls that may set every property, or main's line 26:\n%s", text)
	}
	if !strings.Contains(text, "Without the JDK's fallbacks (a what-if") {
		t.Errorf("text form lacks the run without the JDK's fallbacks:\n%s", text)
	}
	_, stdout, _, _ = runCmd("why", "--level", "4", "--top", "1", "--format", "json", classes)
	rep = topReport{}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.PropertyWriters) > 0 {
		t.Errorf("Correct-String: %d property writers (%v), want the list absent", len(rep.PropertyWriters), err)
	}
}

// checkWhatIfOnly checks why --without-jdk-fallbacks on envwriters against rep, the
// sound report: --top ranks the what-if's own graph, which reaches what rep's second
// run reached and leaves out the same JDK sites; --method answers on it too, so a
// method reachable only through the JDK's fallbacks (rep lists its path) is not.
func checkWhatIfOnly(t *testing.T, classes string, rep topReport) {
	t.Helper()
	_, stdout, stderr, err := runCmd("why", "--top", "3", "--without-jdk-fallbacks", "--format", "json", classes)
	var wi topReport
	if err != nil || json.Unmarshal([]byte(stdout), &wi) != nil {
		t.Fatalf("--without-jdk-fallbacks: %v\n%s\n%s", err, stdout, stderr)
	}
	if !wi.WhatIfOnly || wi.Reachable != rep.WhatIf.Reachable || wi.WhatIf == nil ||
		wi.WhatIf.Reachable != wi.Reachable || len(wi.WhatIf.Sites) != len(rep.WhatIf.Sites) {
		t.Errorf("--without-jdk-fallbacks: whatIfOnly %v, %d reachable, its list %+v; want the what-if's %d reachable and its %d sites",
			wi.WhatIfOnly, wi.Reachable, wi.WhatIf, rep.WhatIf.Reachable, len(rep.WhatIf.Sites))
	}
	// LocalExecutionControl's Method.invoke falls back to any public method (issue
	// 28): in the sound graph jshell's code is reachable, without the JDK's
	// fallbacks nothing calls it.
	const jshell = "jdk.jshell.JShell.eval"
	_, sound, _, _ := runCmd("why", "--method", jshell, classes)
	_, without, _, _ := runCmd("why", "--method", jshell, "--without-jdk-fallbacks", classes)
	if !strings.Contains(sound, "is reachable") || !strings.Contains(without, "not reachable") ||
		!strings.Contains(without, "a what-if") {
		t.Errorf("why --method %s: sound\n%s\nwithout the JDK's fallbacks\n%s\nwant reachable, then not, said to be a what-if", jshell, sound, without)
	}
}

// checkWhatIf checks why --top's run without the JDK's fallbacks on
// testdata/java/envwriters: it reaches less than the sound graph and lists only JDK
// sites, the widest fallbacks first, then the nearest; main's own unresolved call of line 22,
// which may set every property, keeps its fallback there.
func checkWhatIf(t *testing.T, rep topReport) {
	t.Helper()
	wi := rep.WhatIf
	if wi == nil {
		t.Fatal("no run without the JDK's fallbacks in the report")
	}
	if wi.Reachable <= 0 || wi.Reachable >= rep.Reachable {
		t.Errorf("%d methods reachable without the JDK's fallbacks, %d with them: want fewer, and some", wi.Reachable, rep.Reachable)
	}
	if len(wi.Sites) == 0 {
		t.Error("no JDK site falls back without the JDK's fallbacks: the JVM's startup reaches some (ZoneRulesProvider's, for one)")
	}
	for i, s := range wi.Sites {
		if strings.HasPrefix(s.Method, "ew.") || s.API == "" || s.Status == "" || s.Depth < 1 {
			t.Errorf("site %+v: want a JDK method's site with its API, status and depth", s)
		}
		if i == 0 {
			continue
		}
		if p := wi.Sites[i-1]; fallbackReach(s.Feature) < fallbackReach(p.Feature) ||
			fallbackReach(s.Feature) == fallbackReach(p.Feature) && s.Depth < p.Depth {
			t.Errorf("site %d (%s, depth %d) after one of %s at depth %d: want the widest fallbacks first, then the nearest",
				i, s.Feature, s.Depth, p.Feature, p.Depth)
		}
	}
	if !slices.ContainsFunc(wi.PropertyWriters, func(w writerSite) bool { return strings.HasPrefix(w.Method, "ew.Main.main(") && w.Line == 22 }) {
		t.Errorf("property writers without the JDK's fallbacks %+v: want main's line 22", wi.PropertyWriters)
	}
}

// TestWhyFlow asks why the area methods of testdata/java/whyflow are reachable:
// each is the target of an interface call, and under TFA the answer goes on with
// how that call's receiver came to hold the class, from Main.java. draw's
// receiver is its parameter, which main passes from the field kept (line 23),
// which holds the Circle main creates (line 21). drawFirst's is an element of its
// array parameter (line 36), the one main creates at line 22 holding a new
// Square. The Triangle is in the ArrayList of line 40 that native code gets (line
// 42), so the list's contents are any object and the chain ends at what native
// code holds. doPrivileged (line 49) runs Act.run on the Act of line 48. A
// lambda edge is explained alike: the Hook lambda of line 61, through an array,
// to the loop's h.run() of line 63. XTA's
// sets are per method: the Square comes from main's. RTA follows no values and
// says nothing more.
func TestWhyFlow(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "whyflow"), javatest.Release(17))
	explain := func(args ...string) []string {
		t.Helper()
		code, stdout, stderr, err := runCmd(append(append([]string{"why"}, args...), classes)...)
		if err != nil || code != 0 {
			t.Fatalf("%v: exit %d, %v\n%s", args, code, err, stderr)
		}
		_, after, ok := strings.Cut(stdout, "how it came there, that value first:\n")
		if !ok {
			return nil
		}
		var steps []string
		for line := range strings.Lines(after) {
			_, step, _ := strings.Cut(strings.TrimSpace(line), ". ")
			steps = append(steps, step)
		}
		return steps
	}
	const created = " (the allocations of the class that nothing else flows into share this value): an object of class "
	for _, tc := range []struct {
		method string
		want   []string
	}{
		{"flow.Main$Circle.area", []string{
			"parameter 1 of flow.Main.draw(Lflow/Main$Shape;)D",
			"field flow.Main.kept",
			"new flow.Main$Circle" + created + "flow.Main$Circle is created here",
		}},
		{"flow.Main$Square.area", []string{
			"an element read from an array at line 36 of flow.Main.drawFirst([Lflow/Main$Shape;)D",
			"the elements of the array created at line 22 of flow.Main.main([Ljava/lang/String;)V",
			"new flow.Main$Square" + created + "flow.Main$Square is created here",
		}},
	} {
		if got := explain("--no-jdk", "--level", "2", "--method", tc.method); !slices.Equal(got, tc.want) {
			t.Errorf("%s: the receiver's flow\n%s\nwant\n%s", tc.method, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
		if got := explain("--no-jdk", "--level", "2", "--algo", "rta", "--method", tc.method); got != nil {
			t.Errorf("%s under RTA: %q, want no flow", tc.method, got)
		}
	}
	// A lambda edge: the Hook lambda of line 61 reaches h.run() (line 63) through
	// the array it is stored in, read by the loop of line 62.
	wantHook := []string{
		"an element read from an array at line 62 of flow.Main.hooks()V",
		"the elements of the array created at line 61 of flow.Main.hooks()V",
		"the lambda or method reference made at line 61 of flow.Main.hooks()V: the lambda is created here",
	}
	if got := explain("--no-jdk", "--level", "2", "--method", "flow.Main.lambda$hooks$0"); !slices.Equal(got, wantHook) {
		t.Errorf("the Hook lambda's flow\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantHook, "\n"))
	}
	// XTA has one set per method: the Square comes from main's.
	xta := explain("--no-jdk", "--level", "2", "--algo", "xta", "--method", "flow.Main$Square.area")
	if wantLast := "the values of flow.Main.main([Ljava/lang/String;)V: an object of class flow.Main$Square is created here"; len(xta) == 0 || xta[len(xta)-1] != wantLast {
		t.Errorf("Square under XTA: the receiver's flow\n%s\nwant it to end with\n%s", strings.Join(xta, "\n"), wantLast)
	}
	got := explain("--method", "flow.Main$Triangle.area")
	want := "the contents of the java.util.ArrayList created at line 40 of flow.Main.escaping()D: any object of its type, because the collection whose contents it is reached code the analysis does not follow"
	if len(got) < 3 || !strings.HasPrefix(got[len(got)-2], want) || !strings.HasPrefix(got[len(got)-1], "what the JVM and native code hold: any object of its type, because code the analysis does not follow") {
		t.Errorf("Triangle: the receiver's flow\n%s\nwant its last two steps to start with\n%s\nwhat the JVM and native code hold: ...", strings.Join(got, "\n"), want)
	}
	// A privileged call runs the action it is handed: its flow too.
	act := explain("--method", "flow.Main$Act.run")
	if wantAct := []string{"new flow.Main$Act" + created + "flow.Main$Act is created here"}; !slices.Equal(act, wantAct) {
		t.Errorf("Act: the action's flow\n%s\nwant\n%s", strings.Join(act, "\n"), strings.Join(wantAct, "\n"))
	}
}

// TestWhySite checks `why --site` on the whyflow program (testdata), with
// flow.Main.sites as the entry point: the targets of the calls at a line, and how
// the receiver came to hold each object that selects one.
func TestWhySite(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "whyflow"), javatest.Release(17))
	site := func(args ...string) []siteReport {
		t.Helper()
		args = append(append([]string{"why", "--no-jdk", "--level", "2", "--entry", "flow.Main.sites", "--format", "json"}, args...), classes)
		code, stdout, stderr, err := runCmd(args...)
		if err != nil || code != 0 {
			t.Fatalf("%v: exit %d, %v\n%s", args, code, err, stderr)
		}
		var reps []siteReport
		if err := json.Unmarshal([]byte(stdout), &reps); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stdout)
		}
		return reps
	}
	const created = "new flow.Main$%s (the allocations of the class that nothing else flows into share this value): an object of class flow.Main$%[1]s is created here"
	// Line 75: s is the Circle or the Square of line 74, nothing else.
	reps := site("--site", "flow.Main.sites:75")
	if len(reps) != 1 {
		t.Fatalf("line 75: %d sites, want the one call s.area()", len(reps))
	}
	rep := reps[0]
	rep75 := rep
	if want := []string{"flow.Main$Circle.area()D", "flow.Main$Square.area()D"}; !slices.Equal(rep.Targets, want) {
		t.Errorf("line 75: targets %q, want %q", rep.Targets, want)
	}
	recv := "the receiver of the call to flow.Main$Shape.area at line 75 of flow.Main.sites(Z)D"
	want := []analysis.ChainGroup{
		{Objects: []string{"an object of class flow.Main$Circle"}, Steps: []string{recv, fmt.Sprintf(created, "Circle")}},
		{Objects: []string{"an object of class flow.Main$Square"}, Steps: []string{recv, fmt.Sprintf(created, "Square")}},
	}
	if !reflect.DeepEqual(rep.Receiver, want) {
		t.Errorf("line 75: the receiver's flow\n%+v\nwant\n%+v", rep.Receiver, want)
	}
	// Line 76: shared is public, so code the analysis does not follow may store
	// any Shape the program creates into it; its chain says so for all three.
	reps = site("--site", "flow.Main.sites:76")
	if len(reps) != 1 {
		t.Fatalf("line 76: %d sites, want the one call shared.area()", len(reps))
	}
	rep = reps[0]
	if want := []string{"flow.Main$Circle.area()D", "flow.Main$Square.area()D", "flow.Main$Triangle.area()D"}; !slices.Equal(rep.Targets, want) {
		t.Errorf("line 76: targets %q, want %q", rep.Targets, want)
	}
	if len(rep.Receiver) != 1 || len(rep.Receiver[0].Objects) != 3 || len(rep.Receiver[0].Steps) != 2 ||
		rep.Receiver[0].Steps[0] != "field flow.Main.shared (code the analysis does not follow may write it: it is public)" ||
		!strings.HasPrefix(rep.Receiver[0].Steps[1], "what native code may store into fields and arrays: any object of its type") {
		t.Errorf("line 76: the receiver's flow %+v, want one chain for the three classes: the public field, then what native code may store", rep.Receiver)
	}
	// A class alone names all its methods: line 75 is sites' call still.
	if byClass := site("--site", "flow.Main:75"); len(byClass) != 1 || !reflect.DeepEqual(byClass[0], rep75) {
		t.Errorf("flow.Main:75: %+v, want sites' report %+v", byClass, rep75)
	}
	// RTA follows no value: every Shape created in reachable code, no chain.
	reps = site("--algo", "rta", "--site", "flow.Main.sites:75")
	if len(reps) != 1 || len(reps[0].Targets) != 3 || reps[0].Receiver != nil {
		t.Errorf("line 75 under RTA: %+v, want the three Shapes' area and no chain", reps)
	}
	// Line 73 holds the Triangle's constructor call only (and the class's
	// initialisation): no dispatch, no chain.
	for _, rep := range site("--site", "flow.Main.sites:73") {
		if rep.Receiver != nil || rep.Traced != "" {
			t.Errorf("line 73, pc %d: a chain %+v for a call that is not a dispatch", rep.PC, rep.Receiver)
		}
	}
	// Line 84's s.area() is code of the lambda's body, lambda$lambdas$1, which
	// naming lambdas finds: its receiver is the Circle the lambda captured. (With
	// the JDK: LambdaMetafactory makes the lambda.)
	code, stdout, stderr, err := runCmd("why", "--level", "2", "--entry", "flow.Main.lambdas", "--site", "flow.Main.lambdas:84", "--format", "json", classes)
	if err != nil || code != 0 {
		t.Fatalf("line 84: exit %d, %v\n%s", code, err, stderr)
	}
	reps = nil
	if err := json.Unmarshal([]byte(stdout), &reps); err != nil {
		t.Fatalf("line 84: %v\n%s", err, stdout)
	}
	var body *siteReport
	for i := range reps {
		if strings.HasPrefix(reps[i].Method, "flow.Main.lambda$lambdas$") {
			body = &reps[i]
		}
	}
	if body == nil || !slices.Equal(body.Targets, []string{"flow.Main$Circle.area()D"}) || len(body.Receiver) != 1 ||
		body.Receiver[0].Steps[len(body.Receiver[0].Steps)-1] != fmt.Sprintf(created, "Circle") {
		t.Errorf("line 84: %+v, want the lambda body's call of Circle.area, its receiver the Circle created in lambdas", reps)
	}
	// XTA makes exceptions global: line 94's e.getMessage() holds the Oops and
	// the Ouch thrown in the try block, as every value does (and the JVM's
	// exceptions), with no value to trace them to.
	code, stdout, stderr, err = runCmd("why", "--level", "2", "--algo", "xta", "--entry", "flow.Main.caught", "--site", "flow.Main.caught:94", "--format", "json", classes)
	if err != nil || code != 0 {
		t.Fatalf("line 94: exit %d, %v\n%s", code, err, stderr)
	}
	reps = nil
	if err := json.Unmarshal([]byte(stdout), &reps); err != nil {
		t.Fatalf("line 94: %v\n%s", err, stdout)
	}
	global := "the values of flow.Main.caught(Z)Ljava/lang/String;: every value may hold it, since XTA's sets do not follow the call stack, which exceptions travel up"
	found := false
	for _, r := range reps {
		for _, g := range r.Receiver {
			if slices.Contains(g.Objects, "an object of class flow.Main$Oops") && slices.Contains(g.Objects, "an object of class flow.Main$Ouch") &&
				slices.Equal(g.Steps, []string{global}) {
				found = true
			}
		}
	}
	if !found || len(reps) == 0 || !slices.Contains(reps[0].Targets, "flow.Main$Oops.getMessage()Ljava/lang/String;") {
		t.Errorf("line 94 under XTA: %+v, want Oops and Ouch in one chain: %s", reps, global)
	}
	// Line 108 (with the JDK): it.hasNext() on a HashSet's iterator, a view whose
	// class the JDK's code does not tell, reaches every Iterator the program
	// creates (ArrayList's, HashMap's among them); the chain says so, naming the
	// set of line 106, and ends where set.iterator() makes the view.
	code, stdout, stderr, err = runCmd("why", "--entry", "flow.Main.views", "--site", "flow.Main.views:108", "--format", "json", classes)
	if err != nil || code != 0 {
		t.Fatalf("line 108: exit %d, %v\n%s", code, err, stderr)
	}
	reps = nil
	if err := json.Unmarshal([]byte(stdout), &reps); err != nil {
		t.Fatalf("line 108: %v\n%s", err, stdout)
	}
	view := "a view (an iterator, a map's keys or values...) of a collection of class java.util.HashSet created at line 106 of flow.Main.views(Ljava/util/List;)I, " +
		"whose class the JDK's code does not tell: to a call on it, any object of its type the program creates"
	made := "the result of java.util.Set.iterator at line 108 of flow.Main.views(Ljava/util/List;)I: the view is made here"
	var hasNext *siteReport
	for i := range reps {
		if slices.Contains(reps[i].Targets, "java.util.ArrayList$Itr.hasNext()Z") {
			hasNext = &reps[i]
		}
	}
	if hasNext == nil || !slices.Contains(hasNext.Targets, "java.util.HashMap$HashIterator.hasNext()Z") ||
		!slices.ContainsFunc(hasNext.Receiver, func(g analysis.ChainGroup) bool {
			return slices.Equal(g.Objects, []string{view}) && len(g.Steps) > 0 && g.Steps[len(g.Steps)-1] == made
		}) {
		t.Errorf("line 108: %+v\nwant it.hasNext() with ArrayList's and HashMap's iterators among its targets, its receiver %q, made where %q", reps, view, made)
	}
	// A line without a call says where the calls are; a site without a line is a
	// usage error, found before any analysis.
	code, stdout, _, err = runCmd("why", "--no-jdk", "--level", "2", "--entry", "flow.Main.sites", "--site", "flow.Main.sites:70", classes)
	if code != 0 || err != nil || !strings.Contains(stdout, "No call of flow.Main.sites in the graph at line 70; its calls are at lines 73, 74, 75, 76.") {
		t.Errorf("line 70: exit %d, %v\n%s\nwant where the calls are", code, err, stdout)
	}
	if code, _, _, err := runCmd("why", "--site", "flow.Main.sites", classes); code != 2 || err == nil || !strings.Contains(err.Error(), "LINE") {
		t.Errorf("--site without a line: exit %d, %v; want a usage error (2)", code, err)
	}
}
