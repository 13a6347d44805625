package server

import (
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/ide"
)

// TestPropertyQuickFix opens testdata/lsp/envprops (Main loads the class system
// property demo.plugin names) at the defaults (TFA, Correct-JDK) with the real JDK.
// Its unresolved reflective calls may set every property today, so the site is
// unresolved, its unknown value from System.getProperty("demo.plugin"). The quick
// fix "Analyse with demo.plugin=demo.Fast" runs jcg.setProperty: the server analyses
// again with the property configured, the site loads (and initialises) demo.Fast
// only, its diagnostic goes, and main's outgoing calls from its line show demo.Fast's
// initialiser, not demo.Slow's (nor the fallback's thousands).
func TestPropertyQuickFix(t *testing.T) {
	dir := workspace(t, "envprops")
	e := newEnv(t, dir, envOptions{})
	e.waitReady(0)
	main := src("demo/Main.java")
	p := e.pos(main, `Class\.(forName)\(System\.getProperty\("demo\.plugin"\)\)`)
	d := findDiag(t, e, main, e.diagnostics(main), p)
	if msg, _ := d.Message.(protocol.String); !strings.Contains(string(msg), `unknown value from System.getProperty("demo.plugin"), which reachable code may set (a value in jcg.env decides it)`) {
		t.Errorf("diagnostic: %v", d.Message)
	}
	actions := e.codeActions(main, d)
	var fix *protocol.CodeAction
	var titles []string
	for i := range actions {
		titles = append(titles, actions[i].Title)
		if actions[i].Title == "Analyse with demo.plugin=demo.Fast (jcg.env)" {
			fix = &actions[i]
		}
	}
	if fix == nil || fix.Command.Command != ide.SetPropertyCommand || len(fix.Command.Arguments) != 2 {
		t.Fatalf("actions %q: no property fix with its command", titles)
	}
	main0 := e.prepare(main, e.pos(main, `static void (main)`))[0]
	var res string
	args := []any{}
	for _, a := range fix.Command.Arguments {
		args = append(args, a)
	}
	if err := e.command(fix.Command.Command, &res, args...); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res, "demo.plugin=demo.Fast: ") {
		t.Errorf("command result %q", res)
	}
	e.waitFor("no diagnostic on the plugin site", func() bool { return diagAt(e.diags[e.uri(main)], p) == nil })
	if h := e.hover(main, p); !strings.Contains(h, "demo.Fast") || strings.Contains(h, "unresolved") {
		t.Errorf("hover after the fix:\n%s", h)
	}
	// The initialisers main's plugin line reaches (the theme's line, unresolved,
	// still falls back to every class's).
	var inits []string
	for _, c := range e.outgoing(main0) {
		if slices.ContainsFunc(c.FromRanges, func(r protocol.Range) bool { return r.Start.Line == p.Line }) && strings.HasPrefix(c.To.Name, "static {") {
			inits = append(inits, detail(c.To))
		}
	}
	if !slices.ContainsFunc(inits, func(s string) bool { return strings.HasPrefix(s, "demo.Fast") }) || slices.ContainsFunc(inits, func(s string) bool { return strings.HasPrefix(s, "demo.Slow") }) || len(inits) > 3 {
		t.Errorf("initialisers of the plugin's line after the fix: %.600q, want demo.Fast's, not demo.Slow's", inits)
	}
	if err := e.command(ide.SetPropertyCommand, nil, "demo.plugin"); rpcCode(err) == 0 {
		t.Errorf("a key without a value: %v", err)
	}
}
