package incremental

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

const baseA = `package p;
public class A {
  public static void main(String[] args) throws Exception { new B().run(); Class.forName(args[0]); }
}
`
const baseB = `package p;
public class B { public void run() { System.out.println("b"); } }
`

// TestHostBuild: the host publishes a snapshot per build, tells what a change set
// changes (nothing for a rewrite with the same bytes), and keeps replaced snapshots
// usable while held; each snapshot equals a new analysis.
func TestHostBuild(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, filepath.Join(t.TempDir(), "spec.txt"))
	m := newTestHost(t, st)
	s, release := m.acquire()
	if s.ID != 1 {
		t.Fatalf("first snapshot ID %d", s.ID)
	}
	release()

	// Identical bytes: no change, no analysis.
	n := m.builds.Load()
	data, _ := os.ReadFile(filepath.Join(out, "p/B.class"))
	if err := os.WriteFile(filepath.Join(out, "p/B.class"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := m.update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/B.class")}})
	if err != nil || ev.Published() || m.builds.Load() != n {
		t.Fatalf("identical rewrite: %+v %v builds %d->%d", ev, err, n, m.builds.Load())
	}

	// Hold the old snapshot across the update: it stays usable.
	old, releaseOld := m.acquire()
	defer releaseOld()
	oldText := snapshotText(t, old, callgraph.CorrectEnv)
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": `package p;
public class B { public void run() { helper(); } void helper() {} }
`, "p/C.java": "package p; class C {}"}, out)
	ev, err = m.update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/B.class"), filepath.Join(out, "p/C.class")}})
	if err != nil || !ev.Published() {
		t.Fatalf("update: %+v %v", ev, err)
	}
	if !slices.Equal(ev.Changed, []string{"p/B"}) || !slices.Equal(ev.Added, []string{"p/C"}) || len(ev.Removed) != 0 {
		t.Errorf("changes %+v", ev)
	}
	if ev.Snapshot != 2 || ev.Previous != 1 {
		t.Errorf("ids %d %d", ev.Snapshot, ev.Previous)
	}
	if old.ID != 1 || old.Hierarchy().Class("p/C") != nil {
		t.Errorf("old snapshot changed")
	}
	// Still readable after being replaced, and unchanged.
	if got := snapshotText(t, old, callgraph.CorrectEnv); got != oldText {
		t.Errorf("the replaced snapshot's graph changed:\n%s\nwas\n%s", got, oldText)
	}

	// Removal.
	if err := os.Remove(filepath.Join(out, "p/C.class")); err != nil {
		t.Fatal(err)
	}
	ev, err = m.update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/C.class")}})
	if err != nil || !slices.Equal(ev.Removed, []string{"p/C"}) {
		t.Fatalf("remove: %+v %v", ev, err)
	}

	// A comment in the specification file means nothing new: no build.
	n = m.builds.Load()
	if err := os.WriteFile(st.SpecPath, []byte("# reviewed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ev, err = m.update(context.Background(), ChangeSet{Paths: []string{st.SpecPath}}); err != nil || ev.Published() || m.builds.Load() != n {
		t.Fatalf("spec comment: %+v %v", ev, err)
	}
	// An entry resolves the Class.forName site.
	if err := os.WriteFile(st.SpecPath, []byte("p.A.main @ 3 => p.B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err = m.update(context.Background(), ChangeSet{Paths: []string{st.SpecPath}})
	if err != nil || !ev.SpecChanged {
		t.Fatalf("spec: %+v %v", ev, err)
	}
	s, release = m.acquire()
	defer release()
	for _, l := range []callgraph.Level{callgraph.BehavedCLs, callgraph.CorrectEnv} {
		if got, want := snapshotText(t, s, l), scratchText(t, st, l); got != want {
			t.Errorf("level %v: incremental\n%s\nscratch\n%s", l, got, want)
		}
	}
}

func TestUpdateDefersUnparseableClass(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	m := newTestHost(t, testSettings(t, out, ""))
	p := filepath.Join(out, "p/B.class")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := m.update(context.Background(), ChangeSet{Paths: []string{p}})
	if err != nil || ev.Published() || !slices.Equal(ev.Deferred, []string{p}) {
		t.Fatalf("%+v %v", ev, err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err = m.update(context.Background(), ChangeSet{Paths: []string{p}})
	if err != nil || ev.Published() || len(ev.Deferred) != 0 {
		t.Fatalf("%+v %v", ev, err)
	}
}

// TestUpdateCancelsInFlight: a cancelled build publishes nothing, and its changes
// carry over into the next change set's build.
func TestUpdateCancelsInFlight(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	m := newTestHost(t, st)
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2}, out)
	ctx, cancel := context.WithCancel(context.Background())
	m.beforeBuild = func(context.Context) { cancel() }
	ev, err := m.update(ctx, ChangeSet{Paths: []string{filepath.Join(out, "p/B.class")}})
	if !errors.Is(err, context.Canceled) || ev.Published() {
		t.Errorf("first update: %+v %v, want cancelled", ev, err)
	}
	if s, release := m.acquire(); s.ID != 1 {
		t.Errorf("a cancelled build published snapshot %d", s.ID)
		release()
	} else {
		release()
	}
	m.beforeBuild = nil
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2, "p/C.java": "package p; class C {}"}, out)
	ev, err = m.update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/C.class")}})
	if err != nil || !slices.Equal(ev.Changed, []string{"p/B"}) || !slices.Equal(ev.Added, []string{"p/C"}) || ev.Snapshot != 2 {
		t.Errorf("second update: %+v %v", ev, err)
	}
	s, release := m.acquire()
	defer release()
	if got, want := snapshotText(t, s, callgraph.CorrectEnv), scratchText(t, st, callgraph.CorrectEnv); got != want {
		t.Errorf("incremental\n%s\nscratch\n%s", got, want)
	}
}

// TestConcurrentReaders: readers acquiring snapshots while builds publish new ones
// always see whole snapshots with non-decreasing IDs, usable until released.
func TestConcurrentReaders(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	tmp := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2}, tmp)
	variants := [2][]byte{}
	variants[0], _ = os.ReadFile(filepath.Join(out, "p/B.class"))
	variants[1], _ = os.ReadFile(filepath.Join(tmp, "p/B.class"))
	m := newTestHost(t, testSettings(t, out, ""))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last uint64
			for {
				select {
				case <-stop:
					return
				default:
				}
				s, release := m.acquire()
				if s.ID < last {
					t.Errorf("snapshot IDs went back: %d after %d", s.ID, last)
				}
				last = s.ID
				if s.Graph == nil || s.Graph.NumReachable() == 0 {
					t.Error("snapshot without a graph")
				}
				if len(s.Hierarchy().Classes()) == 0 {
					t.Error("empty snapshot")
				}
				release()
			}
		}()
	}
	p := filepath.Join(out, "p/B.class")
	var held []*Snapshot
	var releases []func()
	for i := range 10 {
		os.WriteFile(p, variants[(i+1)%2], 0o644)
		if _, err := m.update(context.Background(), ChangeSet{Paths: []string{p}}); err != nil {
			t.Fatal(err)
		}
		s, release := m.acquire()
		if s.ID != uint64(i+2) {
			t.Errorf("ID %d after %d updates", s.ID, i+1)
		}
		held, releases = append(held, s), append(releases, release)
	}
	close(stop)
	wg.Wait()
	for _, r := range releases[:len(releases)-1] {
		r()
	}
	// Replaced and released snapshots are closed (once the background planning of
	// an analysis, which holds its index, ends); the current one is not.
	for _, s := range held[:len(held)-1] {
		deadline := time.Now().Add(10 * time.Second)
		for s.acquire() {
			s.release()
			if time.Now().After(deadline) {
				t.Errorf("snapshot %d still open after it was replaced and released", s.ID)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	cur, release := m.acquire()
	defer release()
	if cur != held[len(held)-1] {
		t.Errorf("current snapshot %d, want %d", cur.ID, held[len(held)-1].ID)
	}
	releases[len(releases)-1]()
}

// TestOtherGraphsUpdatedInPlace: after an edit of a method body, the graphs of the
// other levels the previous snapshot computed are updated in place in the
// background (so their counts stay in the status, and switching to them costs an
// update), and equal new analyses.
func TestOtherGraphsUpdatedInPlace(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	m := newTestHost(t, st)
	s, release := m.acquire()
	other := s.Options
	other.Level = callgraph.BehavedCLs
	if _, err := s.GraphWith(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.UnresolvedByLevel()[callgraph.BehavedCLs.String()]; !ok {
		t.Fatal("the other level's graph is not counted")
	}
	release()

	// A body change only: run calls another PrintStream method.
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": `package p;
public class B { public void run() { System.out.print("b"); } }
`}, out)
	ev, err := m.update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/B.class")}})
	if err != nil || !ev.InPlace {
		t.Fatalf("the edit was not updated in place: %+v %v", ev, err)
	}
	s, release = m.acquire()
	defer release()
	// Nobody asks for the other level: only the background update counts it.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, ok := s.UnresolvedByLevel()[callgraph.BehavedCLs.String()]; ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the other level's graph was not updated after the edit")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got, want := snapshotText(t, s, callgraph.BehavedCLs), scratchText(t, st, callgraph.BehavedCLs); got != want {
		t.Errorf("the other level's updated graph differs from a new analysis:\n%s\nwant\n%s", got, want)
	}
}

// TestInterimCompanion: under TFA, which analyses anew on every change, the host
// keeps a CHA graph of the same level beside the published one (computed in the
// background as soon as the graph is published), updates it in place on an edit of
// method bodies and hands it to Request.Interim before the TFA analysis, and
// Current and Acquire return it until the TFA graph is published; the interim graph
// equals a new CHA analysis of the edited program, and the published one a new TFA
// analysis. The first edit comes right after the first build (its companion may
// still be being computed: the edit waits for it) or once the companion is ready.
func TestInterimCompanion(t *testing.T) {
	for _, ready := range []bool{false, true} {
		t.Run(fmt.Sprintf("companion-ready=%v", ready), func(t *testing.T) { testInterimCompanion(t, ready) })
	}
}

func testInterimCompanion(t *testing.T, ready bool) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	st.Options.Algorithm = callgraph.TFA
	m := newTestHost(t, st)
	if ready {
		s, release := m.acquire()
		deadline := time.Now().Add(30 * time.Second)
		for !s.Updatable() {
			if time.Now().After(deadline) {
				t.Fatal("no CHA companion graph after 30s")
			}
			time.Sleep(10 * time.Millisecond)
		}
		release()
	}

	var interims []string
	m.interim = func(set []*Snapshot) {
		if len(set) != 1 || set[0].Options.Algorithm != callgraph.CHA || !set[0].InPlace || set[0].Graph == nil {
			t.Errorf("interim snapshots %+v", set)
			return
		}
		if cur, release := m.h.Current(); len(cur) != 1 || cur[0] != set[0] {
			t.Error("Current does not return the interim snapshot while the build analyses")
		} else {
			release()
		}
		if s, release := m.h.Acquire(nil); s != set[0] {
			t.Error("Acquire does not return the interim snapshot while the build analyses")
		} else {
			release()
		}
		ms := set[0].Hierarchy().Methods()
		interims = append(interims, graphText(func(id int32) string { return nodeName(ms, id) }, set[0].Graph))
	}
	// A body change only: run calls another PrintStream method.
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": `package p;
public class B { public void run() { System.out.print("b"); } }
`}, out)
	ev, err := m.update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/B.class")}})
	if err != nil || ev.InPlace || !ev.Published() {
		t.Fatalf("the edit was not analysed anew: %+v %v", ev, err)
	}
	if len(interims) != 1 {
		t.Fatalf("%d interim graphs, want 1", len(interims))
	}
	cha := st
	cha.Options.Algorithm = callgraph.CHA
	if want := scratchText(t, cha, st.Options.Level); interims[0] != want {
		t.Errorf("the interim graph differs from a new CHA analysis:\n%s\nwant\n%s", interims[0], want)
	}
	if !strings.Contains(interims[0], "java/io/PrintStream.print(Ljava/lang/String;)V") {
		t.Error("the interim graph misses the edit's call of PrintStream.print")
	}
	s, release := m.acquire()
	defer release()
	if s.Options.Algorithm != callgraph.TFA {
		t.Errorf("after the build, Acquire returns a snapshot of %s, want the published TFA one", s.Options.Algorithm)
	}
	if got, want := snapshotText(t, s, st.Options.Level), scratchText(t, st, st.Options.Level); got != want {
		t.Errorf("the published graph differs from a new TFA analysis:\n%s\nwant\n%s", got, want)
	}
	if !s.Updatable() {
		t.Error("the companion of the published graph is not the interim one")
	}
}
