package server

import (
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestSettings checks the layers of settings and the reporting of bad values.
func TestSettings(t *testing.T) {
	st := DefaultSettings()
	l, err := parseLayer([]byte(`{"jcg": {"level": "encap-respect", "algorithm": "RTA", "env": {"k": "v"}, "diagnosticSeverity": "error", "bogus": 1, "classPath": "out"}}`))
	if err != nil {
		t.Fatal(err)
	}
	probs := st.apply(l)
	if st.Level != callgraph.EncapRespect || st.Algorithm != callgraph.RTA || st.Env["k"] != "v" || st.Severity != 1 || !slices.Equal(st.ClassPath, []string{"out"}) {
		t.Errorf("settings %+v", st)
	}
	if len(probs) != 1 || !strings.Contains(probs[0], "bogus") {
		t.Errorf("problems %v", probs)
	}
	l, _ = parseLayer([]byte(`{"jcg.level": "nonsense", "jcg.nativeDiagnosticSeverity": "off"}`))
	probs = st.apply(l)
	if st.Level != callgraph.EncapRespect || st.NativeSeverity != 0 || len(probs) != 1 || !strings.Contains(probs[0], "level") {
		t.Errorf("after a bad level: %+v %v", st, probs)
	}
	// A level is named: a number would mean another level once levels are added.
	for _, raw := range []string{`{"level": 4}`, `{"level": "4"}`} {
		l, _ = parseLayer([]byte(raw))
		probs = st.apply(l)
		if st.Level != callgraph.EncapRespect || len(probs) != 1 || !strings.Contains(probs[0], "not its number") {
			t.Errorf("%s: level %v, problems %v", raw, st.Level, probs)
		}
	}
}

// TestBuildToolSetting checks jcg.buildTool's values, and that the workspace's trust
// is no setting: a workspace's settings must not be able to grant it.
func TestBuildToolSetting(t *testing.T) {
	st := DefaultSettings()
	if probs := st.apply(settingsLayer{initTrustKey: []byte(`true`)}); len(probs) != 1 || !strings.Contains(probs[0], "unknown setting jcg.workspaceTrusted") {
		t.Errorf("workspaceTrusted as a setting: %v", probs)
	}
	if probs := st.apply(settingsLayer{"buildTool": []byte(`"gradle"`)}); len(probs) > 0 || st.BuildTool != "gradle" {
		t.Errorf("buildTool gradle: %q, %v", st.BuildTool, probs)
	}
	probs := st.apply(settingsLayer{"buildTool": []byte(`"ant"`)})
	if st.BuildTool != "gradle" || len(probs) != 1 || !strings.Contains(probs[0], `want one of ["auto" "maven" "gradle" "off"]`) {
		t.Errorf("buildTool ant: %q, %v", st.BuildTool, probs)
	}
}

// TestEditorFeatureSettings checks the settings of unreachable code and code lenses:
// on by default, off when asked, bad values reported and ignored.
func TestEditorFeatureSettings(t *testing.T) {
	st := DefaultSettings()
	if p := st.present(); p.Unreachable != 4 || !p.CodeLens {
		t.Errorf("defaults present %+v", p)
	}
	l, _ := parseLayer([]byte(`{"unreachable": "off", "codeLens": false}`))
	if probs := st.apply(l); len(probs) != 0 || st.Unreachable != 0 || st.CodeLens {
		t.Errorf("off: %+v %v", st, probs)
	}
	l, _ = parseLayer([]byte(`{"unreachable": "warning", "codeLens": "yes"}`))
	probs := st.apply(l)
	if len(probs) != 2 || !strings.Contains(probs[0], "codeLens") || !strings.Contains(probs[1], "want hint or off") || st.Unreachable != 0 || st.CodeLens {
		t.Errorf("bad values: %+v %v", st, probs)
	}
	l, _ = parseLayer([]byte(`{"unreachable": "hint"}`))
	if st.apply(l); st.Unreachable != 4 {
		t.Errorf("hint: %+v", st)
	}
}
