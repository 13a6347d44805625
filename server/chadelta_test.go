package server

import (
	"slices"
	"strings"
	"testing"
)

// TestCHAWouldAdd checks, through the JSON-RPC connection, what the call hierarchy
// says CHA would add (testdata/lsp/chadelta). Only Base and Leaf are created, both
// in main, so under RTA and TFA main's b.run() reaches Base.run and Leaf.run, and
// CHA would add Middle.run, which runs only through Leaf.run's super call: main's
// outgoing calls say "CHA would add 1 more target", and Middle.run's incoming calls
// (Leaf.run) end with a note that CHA would add 1 caller (main), which expands to
// nothing. Under CHA the graph has all three targets and neither remark appears.
// The TFA case is also the server serving TFA graphs.
func TestCHAWouldAdd(t *testing.T) {
	dir := workspace(t, "chadelta")
	main := src("chad/Main.java")
	for _, algo := range []string{"cha", "rta", "tfa"} {
		t.Run(algo, func(t *testing.T) {
			e := newEnv(t, dir, envOptions{config: map[string]any{"level": "correct-string", "algorithm": algo, "mainClasses": []string{"chad.Main"}}})
			defer e.close()
			e.waitReady(0)

			items := e.prepare(main, e.pos(main, `static void (main)\(`))
			if len(items) != 1 {
				t.Fatalf("prepare main: %+v", items)
			}
			var runs []string
			for _, c := range e.outgoing(items[0]) {
				if c.To.Name != "run()" {
					continue
				}
				cls, _, _ := strings.Cut(detail(c.To), " ")
				runs = append(runs, cls)
				said := strings.Contains(detail(c.To), strings.ToUpper(algo)+"; CHA would add 1 more target at this call")
				if said != (algo != "cha") {
					t.Errorf("%s: outgoing %s.run() detail %q", algo, cls, detail(c.To))
				}
			}
			want := "chad.Base chad.Leaf"
			if algo == "cha" {
				want = "chad.Base chad.Leaf chad.Middle"
			}
			if got := strings.Join(slices.Sorted(slices.Values(runs)), " "); got != want {
				t.Errorf("%s: main calls run() of %s, want %s", algo, got, want)
			}

			hover := e.hover(main, e.pos(main, `b\.(run)\(\);`))
			if said := strings.Contains(hover, "CHA would add 1 more target"); said != (algo != "cha") || !strings.Contains(hover, "run") {
				t.Errorf("%s: hover on b.run():\n%s", algo, hover)
			}

			mid := e.prepare(main, e.pos(main, `class Middle extends Base \{\s+@Override\s+void (run)\(`))
			if len(mid) != 1 {
				t.Fatalf("prepare Middle.run: %+v", mid)
			}
			in := e.incoming(mid[0])
			var names []string
			for _, c := range in {
				names = append(names, c.From.Name)
			}
			switch algo {
			case "rta", "tfa":
				if len(in) != 2 || in[0].From.Name != "run()" || in[1].From.Name != "… CHA would add 1 caller" {
					t.Fatalf("%s: incoming calls of Middle.run: %q", algo, names)
				}
				if more := e.incoming(in[1].From); len(more) != 0 {
					t.Errorf("%s: the note expands to %+v, want nothing", algo, more)
				}
				if out := e.outgoing(in[1].From); len(out) != 0 {
					t.Errorf("%s: the note has outgoing calls %+v, want none", algo, out)
				}
			case "cha":
				if len(in) != 2 || strings.HasPrefix(in[0].From.Name, "…") || strings.HasPrefix(in[1].From.Name, "…") {
					t.Fatalf("cha: incoming calls of Middle.run: %q, want main and Leaf.run", names)
				}
			}
		})
	}
}
