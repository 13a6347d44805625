package server

import (
	"slices"
	"strings"
	"testing"
)

// TestSettings checks the layers of settings and the reporting of bad values.
func TestSettings(t *testing.T) {
	st := DefaultSettings()
	l, err := parseLayer([]byte(`{"jcg": {"level": 2, "algorithm": "RTA", "env": {"k": "v"}, "diagnosticSeverity": "error", "bogus": 1, "classPath": "out"}}`))
	if err != nil {
		t.Fatal(err)
	}
	probs := st.apply(l)
	if st.Level != 2 || st.Algorithm != "rta" || st.Env["k"] != "v" || st.Severity != 1 || !slices.Equal(st.ClassPath, []string{"out"}) {
		t.Errorf("settings %+v", st)
	}
	if len(probs) != 1 || !strings.Contains(probs[0], "bogus") {
		t.Errorf("problems %v", probs)
	}
	l, _ = parseLayer([]byte(`{"jcg.level": "nonsense", "jcg.nativeDiagnosticSeverity": "off"}`))
	probs = st.apply(l)
	if st.Level != 2 || st.NativeSeverity != 0 || len(probs) != 1 || !strings.Contains(probs[0], "level") {
		t.Errorf("after a bad level: %+v %v", st, probs)
	}
}
