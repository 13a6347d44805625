package spec

import (
	"strings"
	"testing"
)

func TestParseAndFormat(t *testing.T) {
	src := `# header comment
example.plugin.PluginLoader.loadConfigured()Lexample/plugin/Plugin; @ 31 #2 pc=12 => example.plugin.builtin.AuditPlugin  # trailing comment

example.Main.run @ 40 => example.Task.execute()V, example.Other.<init>(I)V, example.Outer$Inner, example.Task.run
`
	f := Parse("jcg-spec.txt", []byte(src))
	if len(f.Problems) != 0 {
		t.Fatalf("problems: %v", f.Problems)
	}
	if len(f.Entries) != 2 {
		t.Fatalf("got %d entries", len(f.Entries))
	}
	e := f.Entries[0]
	want := Site{Class: "example.plugin.PluginLoader", Method: "loadConfigured", Desc: "()Lexample/plugin/Plugin;", Line: 31, Ordinal: 2, PC: 12}
	if e.Site != want || e.Line != 2 {
		t.Errorf("site = %+v (file line %d), want %+v", e.Site, e.Line, want)
	}
	if len(e.Targets) != 1 || e.Targets[0] != (Target{Class: "example.plugin.builtin.AuditPlugin"}) {
		t.Errorf("targets = %+v", e.Targets)
	}
	wantT := []Target{
		{Class: "example.Task", Member: "execute", Desc: "()V"},
		{Class: "example.Other", Member: "<init>", Desc: "(I)V"},
		{Class: "example.Outer$Inner"},
		{Class: "example.Task", Member: "run"},
	}
	if got := f.Entries[1].Targets; len(got) != len(wantT) {
		t.Fatalf("targets = %+v", got)
	} else {
		for i := range wantT {
			if got[i] != wantT[i] {
				t.Errorf("target %d = %+v, want %+v", i, got[i], wantT[i])
			}
		}
	}
	// Format then Parse gives the same entries.
	for _, e := range f.Entries {
		g := Parse("x", []byte(Format(e)))
		if len(g.Problems) != 0 || len(g.Entries) != 1 || Compare(g.Entries[0].Site, e.Site) != 0 || len(g.Entries[0].Targets) != len(e.Targets) {
			t.Errorf("round trip of %q: %+v %v", Format(e), g.Entries, g.Problems)
		}
	}
}

func TestProblems(t *testing.T) {
	src := strings.Join([]string{
		"a.B.m @ 3 => a.C",        // fine
		"a.B.m @ x => a.C",        // bad line number, col 9
		"a.B.m @ 3",               // missing =>
		"a.B.m => a.C",            // missing @
		"aB @ 3 => a.C",           // bad method
		"a.B.m @ 3 #0 => a.C",     // bad ordinal
		"a.B.m @ 3 => a.C, , a.D", // empty target
		"a.B.m @ 3 foo => a.C",    // unexpected token
	}, "\n")
	f := Parse("s.txt", []byte(src))
	if len(f.Entries) != 1 {
		t.Errorf("entries = %d, want 1", len(f.Entries))
	}
	want := []struct {
		line, col int
		msg       string
	}{
		{2, 9, "bad line number"},
		{3, 10, "missing '=>'"},
		{4, 7, "missing '@"},
		{5, 1, "bad method"},
		{6, 11, "bad call ordinal"},
		{7, 19, "empty target"},
		{8, 11, "unexpected \"foo\""},
	}
	if len(f.Problems) != len(want) {
		t.Fatalf("problems = %v", f.Problems)
	}
	for i, w := range want {
		p := f.Problems[i]
		if p.Line != w.line || p.Col != w.col || !strings.Contains(p.Msg, w.msg) {
			t.Errorf("problem %d = %v, want %d:%d %q", i, p, w.line, w.col, w.msg)
		}
		if !strings.HasPrefix(p.Error(), "s.txt:") {
			t.Errorf("problem %q does not name the file", p.Error())
		}
	}
}

func TestInsertionLine(t *testing.T) {
	src := Header + "a.A.m @ 3 => x.Y\na.C.m @ 1 => x.Y\n"
	// Header has 3 lines: entries are on lines 4 and 5 (1-based).
	for _, tc := range []struct {
		site Site
		want int
	}{
		{Site{Class: "a.B", Method: "m", Line: 1}, 4}, // between the two entries
		{Site{Class: "a.A", Method: "a", Line: 1}, 3}, // before the first
		{Site{Class: "a.D", Method: "m", Line: 1}, 5}, // after the last
	} {
		if got := InsertionLine([]byte(src), tc.site); got != tc.want {
			t.Errorf("InsertionLine(%+v) = %d, want %d", tc.site, got, tc.want)
		}
	}
	if got := InsertionLine(nil, Site{Class: "a", Method: "b", Line: 1}); got != 0 {
		t.Errorf("empty file: %d", got)
	}
}

func TestImportTamiFlex(t *testing.T) {
	log := `Class.forName;example.plugin.builtin.AuditPlugin;example.plugin.PluginLoader.loadConfigured;31;;
Class.newInstance;example.plugin.builtin.AuditPlugin;example.plugin.PluginLoader.loadConfigured;32;;
Class.forName;example.plugin.builtin.GreetingPlugin;example.plugin.PluginLoader.loadConfigured;31;;
Method.invoke;<example.plugin.builtin.AuditPlugin: java.lang.String execute(int[],java.lang.String)>;example.plugin.PluginLoader.execute;50;;
Class.forName;sun.Foo;java.lang.Bar.baz;-1;;
Field.get;<a.B: int f>;a.C.m;3;;
broken line
`
	es, probs := ImportTamiFlex("refl.log", strings.NewReader(log))
	if len(probs) != 2 {
		t.Errorf("problems = %v, want the -1 line and the broken line", probs)
	}
	got := []string{}
	for _, e := range es {
		got = append(got, Format(e))
	}
	want := []string{
		"example.plugin.PluginLoader.execute @ 50 => example.plugin.builtin.AuditPlugin.execute([ILjava/lang/String;)Ljava/lang/String;",
		"example.plugin.PluginLoader.loadConfigured @ 31 => example.plugin.builtin.AuditPlugin, example.plugin.builtin.GreetingPlugin",
		"example.plugin.PluginLoader.loadConfigured @ 32 => example.plugin.builtin.AuditPlugin",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("import:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(Header + "a.B.m()V @ 3 #1 pc=4 => a.C, a.D.m(I)V\n"))
	f.Add([]byte("x @ => ,,\n#\n@#1=>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sf := Parse("f", data)
		for _, e := range sf.Entries {
			Parse("g", []byte(Format(e)))
		}
		InsertionLine(data, Site{Class: "a", Method: "b", Line: 1})
	})
}
