package incremental

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

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

func TestManagerUpdate(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, filepath.Join(t.TempDir(), "spec.txt"))
	m := newTestManager(t, st)
	s, release := m.Acquire()
	if s.ID() != 1 {
		t.Fatalf("first snapshot ID %d", s.ID())
	}
	release()

	// Identical bytes: no change, no analysis.
	n := m.Analyses()
	data, _ := os.ReadFile(filepath.Join(out, "p/B.class"))
	if err := os.WriteFile(filepath.Join(out, "p/B.class"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := m.Update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/B.class")}})
	if err != nil || ev.Published() || m.Analyses() != n {
		t.Fatalf("identical rewrite: %+v %v analyses %d->%d", ev, err, n, m.Analyses())
	}
	// A full rescan with nothing changed publishes nothing either.
	ev, err = m.Update(context.Background(), ChangeSet{Full: true})
	if err != nil || ev.Published() || m.Analyses() != n {
		t.Fatalf("identical rescan: %+v %v", ev, err)
	}

	// Hold the old snapshot across the update: it stays usable.
	old, releaseOld := m.Acquire()
	defer releaseOld()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": `package p;
public class B { public void run() { helper(); } void helper() {} }
`, "p/C.java": "package p; class C {}"}, out)
	ev, err = m.Update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/B.class"), filepath.Join(out, "p/C.class")}})
	if err != nil || !ev.Published() {
		t.Fatalf("update: %+v %v", ev, err)
	}
	if !slices.Equal(ev.Changed, []string{"p/B"}) || !slices.Equal(ev.Added, []string{"p/C"}) || len(ev.Removed) != 0 {
		t.Errorf("changes %+v", ev)
	}
	if !slices.Equal(ev.Files, []string{"p/B.java", "p/C.java"}) {
		t.Errorf("files %v", ev.Files)
	}
	if ev.Snapshot != 2 || ev.Previous != 1 {
		t.Errorf("ids %d %d", ev.Snapshot, ev.Previous)
	}
	if old.ID() != 1 || old.Classes()["p/C"].Hash != 0 {
		t.Errorf("old snapshot changed")
	}
	// Still readable after being replaced.
	_ = snapshotText(t, old, callgraph.CorrectEnv)

	// Removal.
	if err := os.Remove(filepath.Join(out, "p/C.class")); err != nil {
		t.Fatal(err)
	}
	ev, err = m.Update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/C.class")}})
	if err != nil || !slices.Equal(ev.Removed, []string{"p/C"}) || !slices.Equal(ev.Files, []string{"p/C.java"}) {
		t.Fatalf("remove: %+v %v", ev, err)
	}

	// Spec edit: resolves the Class.forName site, so A.java's diagnostics change.
	if err := os.WriteFile(st.SpecPath, []byte("p.A.main @ 3 => p.B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err = m.Update(context.Background(), ChangeSet{Paths: []string{st.SpecPath}})
	if err != nil || !ev.SpecChanged || !slices.Contains(ev.Files, "p/A.java") {
		t.Fatalf("spec: %+v %v", ev, err)
	}
	s, release = m.Acquire()
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
	m := newTestManager(t, testSettings(t, out, ""))
	p := filepath.Join(out, "p/B.class")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err := m.Update(context.Background(), ChangeSet{Paths: []string{p}})
	if err != nil || ev.Published() || !slices.Equal(ev.Deferred, []string{p}) {
		t.Fatalf("%+v %v", ev, err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err = m.Update(context.Background(), ChangeSet{Paths: []string{p}})
	if err != nil || ev.Published() || len(ev.Deferred) != 0 {
		t.Fatalf("%+v %v", ev, err)
	}
}

// TestUpdateCancelsInFlight: a newer change set cancels the analysis in progress,
// whose changes carry over into the newer update.
func TestUpdateCancelsInFlight(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	m := newTestManager(t, st)
	started := make(chan struct{}, 1)
	block := true
	m.beforeAnalysis = func(ctx context.Context) {
		if block {
			block = false // only the first analysis waits (hook runs under buildMu)
			started <- struct{}{}
			<-ctx.Done()
		}
	}
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2}, out)
	type result struct {
		ev  Event
		err error
	}
	first := make(chan result, 1)
	go func() {
		ev, err := m.Update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/B.class")}})
		first <- result{ev, err}
	}()
	<-started
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2, "p/C.java": "package p; class C {}"}, out)
	ev, err := m.Update(context.Background(), ChangeSet{Paths: []string{filepath.Join(out, "p/C.class")}})
	r := <-first
	if !errors.Is(r.err, context.Canceled) || r.ev.Published() {
		t.Errorf("first update: %+v %v, want cancelled", r.ev, r.err)
	}
	if err != nil || !slices.Equal(ev.Changed, []string{"p/B"}) || !slices.Equal(ev.Added, []string{"p/C"}) || ev.Snapshot != 2 {
		t.Errorf("second update: %+v %v", ev, err)
	}
	s, release := m.Acquire()
	defer release()
	if got, want := snapshotText(t, s, callgraph.CorrectEnv), scratchText(t, st, callgraph.CorrectEnv); got != want {
		t.Errorf("incremental\n%s\nscratch\n%s", got, want)
	}
}

// TestConcurrentReaders: readers acquiring snapshots while updates publish new ones
// always see whole snapshots with non-decreasing IDs, usable until released.
func TestConcurrentReaders(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	tmp := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2}, tmp)
	variants := [2][]byte{}
	variants[0], _ = os.ReadFile(filepath.Join(out, "p/B.class"))
	variants[1], _ = os.ReadFile(filepath.Join(tmp, "p/B.class"))
	m := newTestManager(t, testSettings(t, out, ""))
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
				s, release := m.Acquire()
				if s.ID() < last {
					t.Errorf("snapshot IDs went back: %d after %d", s.ID(), last)
				}
				last = s.ID()
				if _, err := s.Graph(context.Background(), callgraph.CorrectEnv); err != nil {
					t.Error(err)
				}
				if len(s.Index().Hierarchy().Classes()) == 0 {
					t.Error("empty snapshot")
				}
				release()
			}
		}()
	}
	p := filepath.Join(out, "p/B.class")
	var held []func()
	for i := range 10 {
		os.WriteFile(p, variants[(i+1)%2], 0o644)
		if _, err := m.Update(context.Background(), ChangeSet{Paths: []string{p}}); err != nil {
			t.Fatal(err)
		}
		s, release := m.Acquire()
		if s.ID() != uint64(i+2) {
			t.Errorf("ID %d after %d updates", s.ID(), i+1)
		}
		held = append(held, release)
	}
	close(stop)
	wg.Wait()
	for _, r := range held[:len(held)-1] {
		r()
	}
	// Replaced and released snapshots are closed; the current one is not.
	cur, release := m.Acquire()
	defer release()
	if cur.closed {
		t.Error("current snapshot closed")
	}
	held[len(held)-1]()
}
