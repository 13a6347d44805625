package layers

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// levelFile is the one file that may compare assumption levels as numbers: it
// defines what each level licenses (callgraph.Level's questions).
const levelFile = "analysis/callgraph/level.go"

// levelType is the assumption level's type.
const levelType = module + "analysis/callgraph.Level"

// TestLevelQuestions checks that no code outside level.go compares assumption
// levels as numbers: an ordinal comparison (<, <=, >, >=, min, max) of levels, or an
// equality test or switch case against a level constant. Such code asks the level a
// question (RespectsEncapsulation, TrustsCasts, ...) instead, so that what a level
// licenses is read where it is asked, and a level can be added or split without
// renumbering anything. Comparing two levels for equality (the same settings?) and
// testing for no level (0) are fine. Test files are not checked: they state
// expectations about levels, some by number.
func TestLevelQuestions(t *testing.T) {
	pkgs, imp := modulePackages(t)
	n := 0
	for _, p := range pkgs {
		if !strings.HasPrefix(p.ImportPath, module) {
			continue
		}
		fset := token.NewFileSet()
		var files []*ast.File
		for _, name := range p.GoFiles {
			path := filepath.Join(p.Dir, name)
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp(fset)}
		if _, err := conf.Check(p.ImportPath, fset, files, info); err != nil {
			t.Fatalf("type-checking %s: %v", p.ImportPath, err)
		}
		rel := strings.TrimPrefix(p.ImportPath, module)
		for i, f := range files {
			if filepath.ToSlash(filepath.Join(rel, p.GoFiles[i])) == levelFile {
				continue
			}
			for _, c := range levelComparisons(fset, f, info) {
				t.Errorf("%s: compares assumption levels as numbers (%s): ask the level a question (callgraph.Level's methods, %s)", c.pos, c.what, levelFile)
			}
		}
		n++
	}
	if n < 20 {
		t.Fatalf("checked %d packages: not the module's", n)
	}
}

// TestLevelComparisons checks the rule on examples, so that a rule that never fires
// cannot pass unnoticed.
func TestLevelComparisons(t *testing.T) {
	_, imp := modulePackages(t)
	src := `package p

import "github.com/jcg-lsp/jcg-lsp/analysis/callgraph"

type opts struct{ Level callgraph.Level }

func f(o opts, l callgraph.Level, n int) {
	_ = o.Level >= callgraph.EncapRespect // bad
	_ = l < o.Level                       // bad
	_ = o.Level == callgraph.BehavedCLs   // bad
	_ = callgraph.CorrectJDK != l         // bad
	_ = min(l, callgraph.EncapRespect)    // bad
	switch l {
	case callgraph.CorrectEnv: // bad
	}
	_ = l == o.Level
	_ = l == 0
	_ = l.RespectsEncapsulation()
	_ = n > 2
	_ = min(n, 3)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{Importer: imp(fset)}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	want := map[int]bool{}
	for i, line := range strings.Split(src, "\n") {
		if strings.HasSuffix(line, "// bad") {
			want[i+1] = true
		}
	}
	got := map[int]bool{}
	for _, c := range levelComparisons(fset, f, info) {
		got[c.pos.Line] = true
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("comparisons found on lines %v, want %v", got, want)
	}
}

type levelComparison struct {
	pos  token.Position
	what string
}

// levelComparisons finds the comparisons of levels as numbers in f.
func levelComparisons(fset *token.FileSet, f *ast.File, info *types.Info) []levelComparison {
	isLevel := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		if !ok {
			return false
		}
		n, ok := tv.Type.(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path()+"."+n.Obj().Name() == levelType
	}
	// isLevelConst: a level constant other than 0 (no level).
	isLevelConst := func(e ast.Expr) bool {
		tv := info.Types[e]
		return isLevel(e) && tv.Value != nil && constant.Sign(tv.Value) != 0
	}
	var out []levelComparison
	add := func(n ast.Node, what string) {
		out = append(out, levelComparison{fset.Position(n.Pos()), what})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			switch n.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				if isLevel(n.X) || isLevel(n.Y) {
					add(n, n.Op.String())
				}
			case token.EQL, token.NEQ:
				if isLevelConst(n.X) || isLevelConst(n.Y) {
					add(n, n.Op.String()+" a level constant")
				}
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "min" || id.Name == "max") {
				if _, builtin := info.Uses[id].(*types.Builtin); builtin {
					for _, a := range n.Args {
						if isLevel(a) {
							add(n, id.Name)
							break
						}
					}
				}
			}
		case *ast.SwitchStmt:
			if n.Tag == nil || !isLevel(n.Tag) {
				break
			}
			for _, s := range n.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					if isLevelConst(e) {
						add(e, "switch case")
					}
				}
			}
		}
		return true
	})
	return out
}

// listedPackage is what go list says of a package.
type listedPackage struct {
	ImportPath string
	Dir        string
	Export     string
	GoFiles    []string
}

// modulePackages lists the module's packages and returns them with an importer
// that reads every package's export data from the build cache (go list -export).
func modulePackages(t *testing.T) ([]listedPackage, func(*token.FileSet) types.Importer) {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Dir,Export,GoFiles", module+"...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	exports := map[string]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
		exports[p.ImportPath] = p.Export
	}
	lookup := func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	}
	return pkgs, func(fset *token.FileSet) types.Importer { return importer.ForCompiler(fset, "gc", lookup) }
}
