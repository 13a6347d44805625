package values

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
)

const jdk17 = "/usr/lib/jvm/java-17-openjdk-amd64"

func buildJDK(tb testing.TB) *index.Index {
	tb.Helper()
	if _, err := os.Stat(jdk17 + "/lib/modules"); err != nil {
		tb.Skipf("no JDK 17 image at %s (apt-get install -y openjdk-17-jdk-headless)", jdk17)
	}
	ix, err := index.Build(context.Background(), index.Config{JDKHome: jdk17}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ix.Close() })
	return ix
}

// TestCallsNamedMatchesFullScan checks the constant-pool index of method references
// against a scan of the facts of every method of the JDK: for every name and
// descriptor that some call instruction or method-handle constant names, callsNamed
// finds exactly those, in the scan's order.
func TestCallsNamedMatchesFullScan(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts the facts of the whole JDK")
	}
	ix := buildJDK(t)
	calls, handles := map[refKey][]CallRef{}, map[refKey][]string{}
	for _, m := range ix.Hierarchy().Methods() {
		f := ix.Facts(m)
		if f == nil {
			continue
		}
		for i, c := range f.Calls {
			if c.Indy == nil {
				k := refKey{c.Ref.Name, c.Ref.Desc}
				calls[k] = append(calls[k], CallRef{m, int32(i)})
				continue
			}
			for _, arg := range c.Indy.Args {
				if arg.Kind == facts.ConstMethodHandle {
					k := refKey{arg.Ref.Name, arg.Ref.Desc}
					handles[k] = append(handles[k], arg.Ref.Class)
				}
			}
		}
	}
	if len(calls) < 10000 || len(handles) < 100 {
		t.Fatalf("the scan found only %d called and %d handled names", len(calls), len(handles))
	}
	vi := NewIndex(ix)
	for k, want := range calls {
		if got := vi.callsNamed(k.name, k.desc).calls; !slices.Equal(got, want) {
			t.Errorf("%s%s: %d calls, the scan %d", k.name, k.desc, len(got), len(want))
		}
	}
	for k, want := range handles {
		got := slices.Clone(vi.callsNamed(k.name, k.desc).handles)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s%s: handles %q, the scan %q", k.name, k.desc, got, want)
		}
	}
	if got := vi.callsNamed("noSuchMethod", "()V"); len(got.calls)+len(got.handles) != 0 {
		t.Errorf("noSuchMethod: %+v", got)
	}
}

// BenchmarkFirstCallers measures the first caller look-up of a run over the JDK,
// which the first application site waits for at levels 3-5: the index of method
// references, then the facts of the classes that name Class.forName(String).
func BenchmarkFirstCallers(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		ix := buildJDK(b)
		m := ix.Hierarchy().Class("java/lang/Class").Method("forName", "(Ljava/lang/String;)Ljava/lang/Class;")
		if m == nil {
			b.Fatal("no Class.forName(String)")
		}
		vi := NewIndex(ix)
		b.StartTimer()
		if n := len(vi.callers(m)); n < 10 {
			b.Fatalf("%d callers of Class.forName", n)
		}
	}
}
