package server

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

var (
	moreCallersRE = regexp.MustCompile(`^… (\d+) more callers$`)
	moreTargetsRE = regexp.MustCompile(`^… (\d+) more targets of java\.lang\.Object\.toString\(\)$`)
)

// TestCallHierarchyHotMethods checks, through the JSON-RPC connection, that the
// incoming calls of a method with thousands of callers (String.valueOf(Object) in
// the JDK) and the outgoing calls of a megamorphic call (Object.toString) are
// capped at maxCallHierarchyItems, end with a "more" item that says how many were
// left out and points at the method itself, and that expanding the "more" items
// lists every caller or target exactly once; and that small answers are complete.
func TestCallHierarchyHotMethods(t *testing.T) {
	const limit = 100 // the default of maxCallHierarchyItems
	dir := workspace(t, "hot")
	e := newEnv(t, dir, envOptions{config: map[string]any{"level": "correct-string", "mainClasses": []string{"hot.Main"}}})
	e.waitReady(0)
	main := src("hot/Main.java")

	t.Run("SmallIncoming", func(t *testing.T) {
		items := e.prepare(main, e.pos(main, `static int (helper)\(`))
		if len(items) != 1 {
			t.Fatalf("prepare helper: %+v", items)
		}
		in := e.incoming(items[0])
		if len(in) != 1 || in[0].From.Name != "twice(int)" || detail(in[0].From) != "hot.Main · (I)I" || len(in[0].FromRanges) != 2 {
			t.Fatalf("incoming calls of helper: %+v", in)
		}
		for _, r := range in[0].FromRanges {
			if got := e.textAt(main, r); got != "helper" {
				t.Errorf("fromRange %v: %q, want helper", r, got)
			}
		}
		out := e.outgoing(in[0].From)
		if len(out) != 1 || out[0].To.Name != "helper(int)" || len(out[0].FromRanges) != 2 {
			t.Errorf("outgoing calls of twice: %+v", out)
		}
	})

	t.Run("IncomingCapped", func(t *testing.T) {
		items := e.prepare(main, e.pos(main, `String\.(valueOf)\(o\)`))
		if len(items) != 1 || items[0].Name != "valueOf(Object)" {
			t.Fatalf("prepare String.valueOf: %+v", items)
		}
		snap, release := e.srv.current()
		node, ok := e.srv.ide.ItemNode(snap, fromItem(&items[0]))
		if !ok {
			t.Fatalf("item %+v names no node", items[0])
		}
		g := snap.Graph
		want := map[int32]bool{}
		for _, bi := range g.Callers(node) {
			want[g.Bundles[bi].Caller] = true
		}
		release()
		if len(want) <= limit {
			t.Fatalf("String.valueOf(Object) has %d callers: not a hot method", len(want))
		}

		first := e.incoming(items[0])
		if len(first) != limit {
			t.Fatalf("%d incoming calls of String.valueOf, want %d (the maximum)", len(first), limit)
		}
		if c := first[0]; c.From.Name != "show(Object)" || !strings.HasPrefix(detail(c.From), "hot.Main ") {
			t.Errorf("first caller %s %q, want the application's hot.Main show(Object)", detail(c.From), c.From.Name)
		}
		if again := e.incoming(items[0]); string(mustJSON(again)) != string(mustJSON(first)) {
			t.Errorf("a second request answers differently")
		}
		// Follow the "more" items to the end: every caller once, as many as the
		// first "more" item said.
		seen := map[string]bool{}
		page, said, pages := first, -1, 0
		for {
			pages++
			more := page[len(page)-1]
			m := moreCallersRE.FindStringSubmatch(more.From.Name)
			if m == nil {
				more = protocol.CallHierarchyIncomingCall{}
			} else {
				page = page[:len(page)-1]
				checkMoreItem(t, more.From, items[0], more.FromRanges)
			}
			if len(page) == 0 {
				t.Fatalf("page %d lists no caller", pages)
			}
			for _, c := range page {
				if moreCallersRE.MatchString(c.From.Name) {
					t.Fatalf("page %d: a \"more\" item before the end", pages)
				}
				if seen[string(c.From.Data)] {
					t.Fatalf("page %d lists %s %s again", pages, detail(c.From), c.From.Name)
				}
				seen[string(c.From.Data)] = true
			}
			if said < 0 && m != nil {
				said, _ = strconv.Atoi(m[1])
				if said+len(page) != len(want) {
					t.Errorf("%d listed and %d more callers, want %d in all", len(page), said, len(want))
				}
			}
			if m == nil {
				break
			}
			page = e.incoming(more.From)
		}
		if len(seen) != len(want) {
			t.Errorf("%d callers over %d pages, want %d", len(seen), pages, len(want))
		}
		t.Logf("String.valueOf(Object): %d callers over %d pages", len(seen), pages)
	})

	t.Run("OutgoingCapped", func(t *testing.T) {
		items := e.prepare(main, e.pos(main, `static String (describe)\(`))
		if len(items) != 1 {
			t.Fatalf("prepare describe: %+v", items)
		}
		snap, release := e.srv.current()
		node, ok := e.srv.ide.ItemNode(snap, fromItem(&items[0]))
		if !ok {
			t.Fatalf("item %+v names no node", items[0])
		}
		g := snap.Graph
		targets := 0
		for _, b := range g.Callees(node) {
			targets += len(g.Sets[b.Set])
		}
		release()
		if targets <= limit {
			t.Fatalf("describe's toString call has %d targets: not megamorphic", targets)
		}

		out := e.outgoing(items[0])
		if len(out) > limit {
			t.Errorf("%d outgoing calls of describe, want at most %d", len(out), limit)
		}
		if out[0].To.Name != "toString()" || !strings.HasPrefix(detail(out[0].To), "hot.Main ") {
			t.Errorf("first target %s %q, want the application's hot.Main toString()", detail(out[0].To), out[0].To.Name)
		}
		seen := map[string]bool{}
		page, said, pages := out, -1, 0
		for {
			pages++
			more := page[len(page)-1]
			m := moreTargetsRE.FindStringSubmatch(more.To.Name)
			if m != nil {
				page = page[:len(page)-1]
				checkMoreItem(t, more.To, items[0], nil)
				if len(more.FromRanges) != 1 || e.textAt(main, more.FromRanges[0]) != "toString" {
					t.Errorf("\"more\" item's fromRanges %v, want the toString call", more.FromRanges)
				}
			}
			for _, c := range page {
				if moreTargetsRE.MatchString(c.To.Name) || seen[string(c.To.Data)] {
					t.Fatalf("page %d: %q listed again or before the end", pages, c.To.Name)
				}
				seen[string(c.To.Data)] = true
			}
			if said < 0 && m != nil {
				said, _ = strconv.Atoi(m[1])
				if said+len(page) != targets {
					t.Errorf("%d listed and %d more targets, want %d in all", len(page), said, targets)
				}
			}
			if m == nil {
				break
			}
			page = e.outgoing(more.To)
		}
		if len(seen) != targets {
			t.Errorf("%d targets over %d pages, want %d", len(seen), pages, targets)
		}
		t.Logf("describe's toString call: %d targets over %d pages", len(seen), pages)
	})
	t.Run("OutgoingManyHugeCalls", func(t *testing.T) {
		// BootstrapMethodInvoker.invoke makes many method-handle calls whose targets
		// are conservative fallbacks, each of thousands of methods: once the answer
		// is full, each further huge call is one "… N targets" item, which lists
		// that call's targets when expanded.
		snap, release := e.srv.current()
		c := snap.Hierarchy().Class("java/lang/invoke/BootstrapMethodInvoker")
		var it protocol.CallHierarchyItem
		for _, m := range c.Methods {
			if m.Name == "invoke" {
				it = toItem(ptr(e.srv.ide.Item(snap, m.ID)))
			}
		}
		release()
		if it.Name == "" {
			t.Fatal("no BootstrapMethodInvoker.invoke")
		}
		unlistedRE := regexp.MustCompile(`^… (\d+) targets of `)
		var unlisted []protocol.CallHierarchyOutgoingCall
		targets := 0
		for _, o := range e.outgoing(it) {
			switch {
			case unlistedRE.MatchString(o.To.Name):
				unlisted = append(unlisted, o)
			case !strings.HasPrefix(o.To.Name, "… "):
				targets++
			}
		}
		if targets > limit || len(unlisted) == 0 {
			t.Fatalf("outgoing calls of %s: %d targets, %d calls left unlisted; want at most %d and some", it.Name, targets, len(unlisted), limit)
		}
		u := unlisted[len(unlisted)-1]
		checkMoreItem(t, u.To, it, nil)
		n, _ := strconv.Atoi(unlistedRE.FindStringSubmatch(u.To.Name)[1])
		page := e.outgoing(u.To)
		want := fmt.Sprintf("… %d more targets of ", n-(limit-1))
		if len(page) != limit || !strings.HasPrefix(page[limit-1].To.Name, want) {
			t.Fatalf("expanding %q: %d entries, the last %q; want %d, the last %q…", u.To.Name, len(page), page[len(page)-1].To.Name, limit, want)
		}
		for _, o := range page {
			if len(o.FromRanges) != 1 || o.FromRanges[0] != u.FromRanges[0] {
				t.Fatalf("expanding %q: %q from %v, want from the call at %v", u.To.Name, o.To.Name, o.FromRanges, u.FromRanges)
			}
		}
		t.Logf("%s: %d targets listed, %d huge calls as one item each; one of %d targets expands to %d entries", it.Name, targets, len(unlisted), n, len(page))
	})
}

// checkMoreItem checks that a "more" item points at the method the answer is about
// and says how to see what it leaves out.
func checkMoreItem(t *testing.T, more, of protocol.CallHierarchyItem, fromRanges []protocol.Range) {
	t.Helper()
	if more.URI != of.URI || more.Range != of.Range || more.SelectionRange != of.SelectionRange {
		t.Errorf("\"more\" item at %s %v, want %s %v (the method itself)", more.URI, more.SelectionRange, of.URI, of.SelectionRange)
	}
	if fromRanges != nil && (len(fromRanges) != 1 || fromRanges[0] != of.SelectionRange) {
		t.Errorf("\"more\" item's fromRanges %v, want the method's name %v", fromRanges, of.SelectionRange)
	}
	if d := detail(more); !strings.Contains(d, "Expand for the ") || !strings.Contains(d, cmdExport) {
		t.Errorf("\"more\" item's detail %q does not say how to see the rest", d)
	}
}
