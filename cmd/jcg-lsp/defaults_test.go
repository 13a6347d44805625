package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/server"
)

// TestDefaultsAgree: the level and the algorithm used when nothing says otherwise
// are analysis.DefaultLevel and analysis.DefaultAlgorithm everywhere a user meets
// them: the flags of callgraph and why, the server's settings, the VS Code
// extension's manifest and the README.
func TestDefaultsAgree(t *testing.T) {
	wantL, wantA := analysis.DefaultLevel, analysis.DefaultAlgorithm
	check := func(where, level, algo string) {
		t.Helper()
		if level != "" {
			if l, err := callgraph.ParseLevel(level); err != nil || l != wantL {
				t.Errorf("%s: default level %q, want %v (%v)", where, level, wantL, err)
			}
		}
		if algo != "" {
			if a, err := callgraph.ParseAlgorithm(algo); err != nil || a != wantA {
				t.Errorf("%s: default algorithm %q, want %v (%v)", where, algo, wantA, err)
			}
		}
	}

	for _, cmd := range []string{"callgraph", "why"} {
		var out bytes.Buffer
		if err := run(context.Background(), []string{cmd, "-h"}, &out, &out); err != nil && exitCode(err) != 0 {
			t.Fatalf("%s -h: %v", cmd, err)
		}
		help := out.String()
		check(cmd+" -h", find(t, cmd+" -h", help, `(?m)^\s*-level string\n[^\n]*\(default "([^"]*)"\)`),
			find(t, cmd+" -h", help, `(?m)^\s*-algo string\n[^\n]*\(default "([^"]*)"\)`))
	}

	st := server.DefaultSettings()
	if st.Level != wantL || st.Algorithm != wantA {
		t.Errorf("server.DefaultSettings: %v at %v, want %v at %v", st.Algorithm, st.Level, wantA, wantL)
	}

	data, err := os.ReadFile(filepath.Join("..", "..", "vscode-extension", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Default any `json:"default"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatalf("vscode-extension/package.json: %v", err)
	}
	props := manifest.Contributes.Configuration.Properties
	level, _ := props["jcg.level"].Default.(string)
	algo, _ := props["jcg.algorithm"].Default.(string)
	if level == "" || algo == "" {
		t.Errorf("vscode-extension/package.json: jcg.level and jcg.algorithm have no string default (%v, %v)", props["jcg.level"].Default, props["jcg.algorithm"].Default)
	}
	check("vscode-extension/package.json", level, algo)

	data, err = os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	check("README (--algo)", "", find(t, "README", readme, `--algo cha\|rta\|xta\|tfa`+"`"+` \(default (\w+)`))
	check("README (--level)", find(t, "README", readme, "`callgraph` and `why` take one, default ([\\w-]+)"), "")
	check("README (server settings)", find(t, "README", readme, `\(level, default ([\w-]+);`),
		find(t, "README", readme, `algorithm, default (\w+);`))
	sa := regexp.MustCompile(`The language server's default is (\w+) at ([\w-]+)`).FindStringSubmatch(readme)
	if sa == nil {
		t.Fatal(`README no longer says "The language server's default is ALGO at LEVEL": update this test`)
	}
	check("README (the language server)", sa[2], sa[1])
}

// find returns the first group of pattern's first match in text, failing the test
// when there is none: the text no longer says what the test reads.
func find(t *testing.T, where, text, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%s no longer matches %q: update this test", where, pattern)
	}
	return m[1]
}
