package layers

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/jcg-lsp/jcg-lsp/"

// pkg is what go list says of a package.
type pkg struct {
	ImportPath string
	Imports    []string
}

// TestLayers reads the module's import graph with go list and checks its arrows:
//   - index (the class files and what is read from them) imports no analysis,
//     incremental, server or command package;
//   - analysis imports no incremental, server or command package, and no package
//     that does IO (os, os/exec, net, path/filepath, io/fs, syscall): what it reads
//     comes through the index, what it writes through an io.Writer;
//   - incremental imports no ide, server or command package;
//   - ide (the features: plain data about a snapshot) imports no server or command
//     package;
//   - the server imports no index package: it reads snapshots through incremental
//     and answers through ide;
//   - internal helpers import neither incremental, ide, the server nor a command;
//   - only the server imports the LSP packages (go.lsp.dev).
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		n++
		name := strings.TrimPrefix(p.ImportPath, module)
		for _, imp := range p.Imports {
			if why := forbidden(name, imp); why != "" {
				t.Errorf("%s imports %s: %s", name, imp, why)
			}
		}
	}
	if n < 20 {
		t.Fatalf("go list named %d packages: not the module's", n)
	}
}

// forbidden says why package name (relative to the module) may not import imp, or
// "" when it may.
func forbidden(name, imp string) string {
	own, inModule := strings.CutPrefix(imp, module)
	under := func(layer string) bool { return own == layer || strings.HasPrefix(own, layer+"/") }
	in := func(layer string) bool { return name == layer || strings.HasPrefix(name, layer+"/") }
	switch {
	case strings.HasPrefix(imp, "go.lsp.dev/") && !in("server"):
		return "only the server speaks the protocol"
	case !inModule && in("analysis"):
		switch imp {
		case "os", "os/exec", "net", "net/http", "path/filepath", "io/fs", "io/ioutil", "syscall":
			return "the analysis does no IO: it reads through the index and writes through an io.Writer"
		}
	case !inModule:
	case in("index") && (under("analysis") || under("incremental") || under("server") || under("cmd")):
		return "the index knows nothing above it"
	case in("analysis") && (under("incremental") || under("server") || under("cmd")):
		return "the analysis knows nothing above it"
	case in("incremental") && (under("ide") || under("server") || under("cmd")):
		return "incremental knows nothing of the features or the server"
	case in("ide") && (under("server") || under("cmd")):
		return "the features answer in plain data: the server converts them to the protocol"
	case in("server") && under("index"):
		return "the server reads snapshots (incremental) and features (ide), not the index"
	case in("internal") && (under("incremental") || under("ide") || under("server") || under("cmd")):
		return "internal helpers serve the layers, they do not use the upper ones"
	}
	return ""
}

// TestForbidden checks the rules on examples, so that a rule that never fires
// cannot pass unnoticed.
func TestForbidden(t *testing.T) {
	for _, c := range []struct {
		name, imp string
		bad       bool
	}{
		{"index/facts", module + "analysis/algo", true},
		{"index/facts", module + "index/bytecode", false},
		{"analysis", "os", true},
		{"analysis/values", "path/filepath", true},
		{"analysis", module + "index/hierarchy", false},
		{"analysis", module + "server", true},
		{"analysis/xta", "go.lsp.dev/protocol", true},
		{"incremental", module + "server", true},
		{"incremental", "os", false},
		{"internal/javatest", module + "server", true},
		{"internal/graphtext", module + "analysis/callgraph", false},
		{"server", "go.lsp.dev/protocol", false},
		{"server", module + "incremental", false},
		{"server", module + "index/hierarchy", true},
		{"server", module + "ide", false},
		{"ide", module + "index/hierarchy", false},
		{"ide", module + "server", true},
		{"ide/javasrc", "go.lsp.dev/uri", true},
		{"incremental", module + "ide", true},
		{"cmd/jcg-lsp", module + "server", false},
	} {
		if got := forbidden(c.name, c.imp) != ""; got != c.bad {
			t.Errorf("forbidden(%s, %s) = %v, want %v", c.name, c.imp, got, c.bad)
		}
	}
}
