package missing

import "testing"

// The kinds and counts of references are checked on a real program by
// cmd/jcg-lsp's TestProjectMissing and server's TestMavenMissingDependency
// (testdata/maven/missing: a call, an allocation, a cast, a field, a class constant
// and a supertype of classes on no class path).

func TestElementClass(t *testing.T) {
	for in, want := range map[string]string{
		"p/C": "p/C", "[Lp/C;": "p/C", "[[Lp/C;": "p/C", "[I": "", "[[J": "", "[Lbroken": "",
	} {
		if got := elementClass(in); got != want {
			t.Errorf("elementClass(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKindString(t *testing.T) {
	if got := (Call | Cast | Super).String(); got != "call, cast, supertype" {
		t.Errorf("String() = %q", got)
	}
	c := Class{Name: "org/example/Widget"}
	if c.Package() != "org.example" || (&Class{Name: "Top"}).Package() != "" {
		t.Errorf("Package() = %q", c.Package())
	}
}
