package server

import (
	"reflect"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/incremental"
)

// TestRestartLoadsCachedGraph: a second server over the same workspace and settings
// loads the call graph the first one stored instead of analysing, and publishes the
// same diagnostics from it.
func TestRestartLoadsCachedGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	dir, cacheDir := workspace(t, "plugins"), t.TempDir()
	factory := src("app/Factory.java")
	session := func() (statusParams, []protocol.Diagnostic, int64) {
		gc, err := incremental.OpenGraphCache(cacheDir, nil)
		if err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, dir, envOptions{config: map[string]any{"level": "correct-string"}, graphs: gc})
		st := e.waitReady(0)
		ds := e.diagnostics(factory)
		e.close()
		gc.Close()
		return st, ds, gc.Hits()
	}
	st1, ds1, hits1 := session()
	st2, ds2, hits2 := session()
	if hits1 != 0 || hits2 != 1 {
		t.Fatalf("graph cache hits: first server %d, second %d; want 0 and 1", hits1, hits2)
	}
	if st1.Message != st2.Message || !reflect.DeepEqual(ds1, ds2) {
		t.Errorf("restarted server differs:\n%q %v\n%q %v", st1.Message, ds1, st2.Message, ds2)
	}
	if len(ds1) == 0 {
		t.Errorf("no diagnostics in %s: nothing compared", factory)
	}
}
