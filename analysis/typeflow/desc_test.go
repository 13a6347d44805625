package typeflow

import (
	"slices"
	"testing"
)

func TestForEachParam(t *testing.T) {
	for _, c := range []struct {
		desc string
		want []string
	}{
		{"()V", nil},
		{"(I)V", []string{"I"}},
		{"(Ljava/lang/String;[I[[Lp/Q;J)Lp/R;", []string{"Ljava/lang/String;", "[I", "[[Lp/Q;", "J"}},
		{"(Ljava/lang/String", nil}, // truncated: the walk ends
		{"([", nil},
		{"", nil},
	} {
		var got []string
		forEachParam(c.desc, func(d string) { got = append(got, d) })
		if !slices.Equal(got, c.want) {
			t.Errorf("forEachParam(%q) = %q, want %q", c.desc, got, c.want)
		}
	}
	if got := returnDesc("(I)Lp/R;"); got != "Lp/R;" {
		t.Errorf("returnDesc = %q", got)
	}
}

// FuzzForEachParam: descriptors come from class files, which may be hostile; the walk
// must never panic and must only report pieces of the descriptor.
func FuzzForEachParam(f *testing.F) {
	for _, s := range []string{"()V", "(I[JLa/B;)V", "(L", "([[[", "(La;", ")"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, desc string) {
		forEachParam(desc, func(d string) {
			if d == "" || len(d) > len(desc) {
				t.Fatalf("piece %q of %q", d, desc)
			}
		})
		_ = returnDesc(desc)
	})
}
