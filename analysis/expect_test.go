package analysis

// The call-graph expectation harness: Java test programs under testdata/java/cg carry
// their expected edges in comments next to the code, and checkProgram compiles them,
// analyses them with the real JDK and checks every expectation.
//
// Grammar (also in testdata/java/README.md, "Call-graph expectations"):
//
//	comment    = "//" directive { directive } [ prose ] .
//	directive  = "@" [ "!" ] name [ "[" qual { "," qual } "]" ] [ "(" arg { "," arg } ")" ] .
//	qual       = "cha" | "rta" | "xta" | "level" ( "=" | ">=" | "<=" | ">" | "<" ) digit .
//	arg        = method | status | feature | level | algorithm .
//	method     = class "." name [ descriptor ] | "<native>" .
//
// A directive comment is a // comment whose text starts with "@"; directives follow
// each other separated by spaces, and the first word not starting with "@" begins
// free prose. Methods are written with the binary class name (pkg.Outer$Inner), the
// method name (<init>, <clinit>, lambda$main$0 are names too) and optionally the JVM
// descriptor; without a descriptor the name stands for every overload. <native> is
// the synthetic NativeMethod node.
//
// A directive after code on the same line is attached to that line; a directive alone
// on its line is attached to the nearest line above that has code. Line-bound
// directives look at the instructions of that line in every method compiled from the
// file (the enclosing method, a lambda body's lambda$ method, an anonymous class's
// method, the constructors that inline a field initialiser):
//
//	@calls(m, ...)      every m has an edge from the line (the line may call more)
//	@!calls(m, ...)     no m has an edge from the line
//	@callees(m, ...)    the line's callees among the program's own methods are
//	                    exactly these (JDK callees are free unless listed)
//	@reachable          on a method's declaration line: the method is reachable
//	@!reachable         ... is not reachable
//	@site(status[, feature])
//	                    the line has a dynamic site (of that feature), and every such
//	                    site has that status: resolved, unresolved, partial, specified
//	@!site[(feature)]   the line has no dynamic site (of that feature)
//
// Free-standing directives, anywhere in the program:
//
//	@edge(from, to, ...)
//	                    an edge from (a method named) from to each to
//	@!edge(from, to, ...)
//	                    no edge from from to any to
//	@reachable(m, ...)  / @!reachable(m, ...): by name
//	@because(from, to, text)
//	                    an edge from from to to whose reason's evidence contains
//	                    text (no comma in it); @!because: no such edge
//	@evidence(m, text)  a dynamic site of m whose evidence contains text;
//	                    @!evidence: none
//	@levels(1,2)        the levels to analyse at (also 1-6 or all); default 1,2
//	@algos(cha,rta,xta) the algorithms; default cha,rta (programs ask for XTA and
//	                    TFA where they test them)
//	@library            library mode (Options.LibraryMode) instead of main methods
//	@jars(a.jar, ...)   compile against and analyse with these jars of
//	                    /usr/share/java as libraries (Debian's; the group skips,
//	                    saying which, where one is not installed)
//	@release(8)         javac --release (default 17)
//
// A program's resources/ directory, beside src/, is copied into its class directory
// (index files, META-INF/services).
//
// Qualifiers restrict the runs a directive applies to: @calls[rta,level>=2](...).
// Every expectation must apply to at least one run, and every method it names must
// exist, so that a typo cannot make a negative expectation pass.
//
// testdata/java/README.md ("Call-graph expectations") has the full description and
// the list of programs. One program: go test ./analysis -run TestCallGraphs -cg=virtual.

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/graphcheck"
	"github.com/jcg-lsp/jcg-lsp/internal/graphtext"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

var cgOnly = flag.String("cg", "", "comma-separated test programs of testdata/java/cg to check (default: all)")

// TestCallGraphs checks the expectations of every program under testdata/java/cg, and
// the subgraph invariants on their graphs.
func TestCallGraphs(t *testing.T) {
	root := filepath.Join(moduleRoot(t), "testdata", "java", "cg")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var only map[string]bool
	if *cgOnly != "" {
		only = map[string]bool{}
		for _, n := range strings.Split(*cgOnly, ",") {
			only[strings.TrimSpace(n)] = true
		}
	}
	var dirs []string
	for _, e := range entries {
		if !e.IsDir() || (only != nil && !only[e.Name()]) {
			continue
		}
		if st, err := os.Stat(filepath.Join(root, e.Name(), "src")); err == nil && st.IsDir() {
			dirs = append(dirs, filepath.Join("testdata", "java", "cg", e.Name()))
		}
	}
	if len(dirs) == 0 {
		t.Fatalf("no test programs under %s (-cg=%q)", root, *cgOnly)
	}
	checkPrograms(t, dirs...)
}

// checkPrograms checks several test programs. Programs that ask for the same runs
// (levels, algorithms, library mode) are analysed together: their class directories
// form one class path and each run covers them all, because a run over the JDK is the
// expensive part and the programs' packages are disjoint (checked), so one program
// cannot change another's edges. Each program is a subtest; so are the subgraph
// invariants of each group of runs.
func checkPrograms(t *testing.T, dirs ...string) {
	t.Helper()
	var progs []*expProgram
	for _, d := range dirs {
		p, errs := parseProgram(t, d)
		if len(errs) > 0 {
			t.Errorf("%s: bad expectations:\n%s", d, strings.Join(errs, "\n"))
			continue
		}
		progs = append(progs, p)
	}
	groups := map[string][]*expProgram{}
	var keys []string
	for _, p := range progs {
		k := p.runKey()
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], p)
	}
	slices.Sort(keys)
	for _, k := range keys {
		ps := groups[k]
		t.Run(k, func(t *testing.T) { checkGroup(t, ps) })
	}
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// expFactsCache keeps the JDK's facts between the test programs' indexes.
var expFactsCache = index.NewFactsCache()

// expProgram is one Java test program and its expectations.
type expProgram struct {
	name    string // path relative to the module root: testdata/java/cg/virtual
	src     string // absolute source directory
	files   []*expFile
	dirs    []*expDirective
	levels  []callgraph.Level
	algos   []callgraph.Algorithm
	library bool
	jars    []string // absolute paths of library jars (@jars)
	release int      // javac --release; 0 for 17

	classes string          // compiled class directory
	names   map[string]bool // internal names of its classes
	pkgs    map[string]bool // internal package names of its classes
}

type expFile struct {
	rel   string // relative to the module root, for messages
	pkg   string // internal package name
	base  string // file name, as in SourceFile
	lines []string

	classes   []*hierarchy.Class
	methods   []*hierarchy.Method
	codeLines map[*hierarchy.Method][]int // each method's LineNumberTable lines
	lineSet   map[int]bool                // lines that have code in some method's LineNumberTable
}

// expDirective is one expectation.
type expDirective struct {
	file    *expFile
	line    int // line of the comment
	at      int // attached code line (0 for free-standing directives)
	neg     bool
	name    string
	quals   []expQual
	args    []string
	text    string
	applied int // number of runs it was checked in

	targets [][]int32 // resolved method args (nil entries for <native>: see native)
	decl    *hierarchy.Method
}

type expQual struct {
	algo  callgraph.Algorithm // 0 or the algorithm
	op    string              // "" or =, >=, <=, >, <
	level int
}

func (q expQual) holds(algo callgraph.Algorithm, l callgraph.Level) bool {
	if q.algo != 0 {
		return q.algo == algo
	}
	v := int(l)
	switch q.op {
	case "=":
		return v == q.level
	case ">=":
		return v >= q.level
	case "<=":
		return v <= q.level
	case ">":
		return v > q.level
	case "<":
		return v < q.level
	}
	return false
}

func (d *expDirective) applies(algo callgraph.Algorithm, l callgraph.Level) bool {
	for _, q := range d.quals {
		if !q.holds(algo, l) {
			return false
		}
	}
	return true
}

func (d *expDirective) pos() string {
	if d.file == nil {
		return "?"
	}
	return fmt.Sprintf("%s:%d", d.file.rel, d.line)
}

func (p *expProgram) runKey() string {
	var ls []string
	for _, l := range p.levels {
		ls = append(ls, strconv.Itoa(int(l)))
	}
	k := "levels=" + strings.Join(ls, ",") + ";algos=" + fmt.Sprint(p.algos)
	if p.library {
		k += ";library"
	}
	if len(p.jars) > 0 || p.release != 0 {
		k += fmt.Sprintf(";jars=%q;release=%d", p.jars, p.release)
	}
	return k
}

// parseProgram reads the sources of a program and its directives.
func parseProgram(t *testing.T, dir string) (*expProgram, []string) {
	t.Helper()
	root := moduleRoot(t)
	src := filepath.Join(root, dir, "src")
	if filepath.IsAbs(dir) {
		src = filepath.Join(dir, "src")
	}
	p := &expProgram{name: dir, src: src}
	var errs []string
	javatest.Sources(t, src, func(path string, data []byte) {
		rel, _ := filepath.Rel(root, path)
		inSrc, _ := filepath.Rel(src, path)
		f := &expFile{
			rel:   filepath.ToSlash(rel),
			pkg:   filepath.ToSlash(filepath.Dir(inSrc)),
			base:  filepath.Base(path),
			lines: strings.Split(string(data), "\n"),
		}
		if f.pkg == "." {
			f.pkg = ""
		}
		p.files = append(p.files, f)
		errs = append(errs, p.parseFile(f)...)
	})
	if len(p.files) == 0 {
		t.Fatalf("%s: no Java sources", src)
	}
	if p.levels == nil {
		p.levels = []callgraph.Level{callgraph.BehavedCLs, callgraph.EncapRespect}
	}
	if p.algos == nil {
		p.algos = []callgraph.Algorithm{callgraph.CHA, callgraph.RTA}
	}
	if len(p.dirs) == 0 {
		errs = append(errs, dir+": no expectations")
	}
	return p, errs
}

// javaComments scans Java source lines and returns, per line, the text of a //
// comment (without the slashes; "" when none) and whether the line has code outside
// comments. It knows string, character and text-block literals and block comments.
func javaComments(lines []string) (comments []string, hasCode []bool) {
	comments = make([]string, len(lines))
	hasCode = make([]bool, len(lines))
	inBlock, inText := false, false
	for i, ln := range lines {
		for j := 0; j < len(ln); j++ {
			c := ln[j]
			switch {
			case inBlock:
				if c == '*' && j+1 < len(ln) && ln[j+1] == '/' {
					inBlock = false
					j++
				}
			case inText:
				hasCode[i] = true
				if c == '\\' {
					j++
				} else if strings.HasPrefix(ln[j:], `"""`) {
					inText = false
					j += 2
				}
			case strings.HasPrefix(ln[j:], "//"):
				comments[i] = ln[j+2:]
				j = len(ln)
			case strings.HasPrefix(ln[j:], "/*"):
				inBlock = true
				j++
			case strings.HasPrefix(ln[j:], `"""`):
				inText = true
				hasCode[i] = true
				j += 2
			case c == '"' || c == '\'':
				hasCode[i] = true
				for j++; j < len(ln) && ln[j] != c; j++ {
					if ln[j] == '\\' {
						j++
					}
				}
			case c != ' ' && c != '\t' && c != '\r':
				hasCode[i] = true
			}
		}
	}
	return comments, hasCode
}

var lineDirectives = map[string]bool{"calls": true, "callees": true, "site": true}

// parseFile collects the directives of one file.
func (p *expProgram) parseFile(f *expFile) []string {
	var errs []string
	comments, hasCode := javaComments(f.lines)
	lastCode := 0
	for i := range f.lines {
		line := i + 1
		if hasCode[i] {
			lastCode = line
		}
		text := strings.TrimSpace(comments[i])
		if !strings.HasPrefix(text, "@") {
			continue
		}
		for text != "" && text[0] == '@' {
			d, rest, err := parseDirective(text)
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s:%d: %v", f.rel, line, err))
				break
			}
			text = strings.TrimSpace(rest)
			d.file, d.line = f, line
			at := line
			if !hasCode[i] {
				at = lastCode
			}
			if err := p.addDirective(d, at); err != nil {
				errs = append(errs, fmt.Sprintf("%s:%d: %s: %v", f.rel, line, d.text, err))
			}
		}
	}
	return errs
}

// parseDirective parses one directive at the start of s and returns the rest.
func parseDirective(s string) (*expDirective, string, error) {
	d := &expDirective{}
	i := 1
	if i < len(s) && s[i] == '!' {
		d.neg = true
		i++
	}
	j := i
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
		j++
	}
	d.name = s[i:j]
	if d.name == "" {
		return nil, "", fmt.Errorf("directive without a name in %q", s)
	}
	if j < len(s) && s[j] == '[' {
		k := strings.IndexByte(s[j:], ']')
		if k < 0 {
			return nil, "", fmt.Errorf("unterminated qualifier in %q", s)
		}
		for _, q := range strings.Split(s[j+1:j+k], ",") {
			eq, err := parseQual(strings.TrimSpace(q))
			if err != nil {
				return nil, "", err
			}
			d.quals = append(d.quals, eq)
		}
		j += k + 1
	}
	if j < len(s) && s[j] == '(' {
		depth, start := 0, j+1
		k := j
		for ; k < len(s); k++ {
			switch s[k] {
			case '(':
				depth++
			case ')':
				depth--
			case ',':
				if depth == 1 {
					d.args = append(d.args, strings.TrimSpace(s[start:k]))
					start = k + 1
				}
			}
			if depth == 0 {
				break
			}
		}
		if depth != 0 {
			return nil, "", fmt.Errorf("unbalanced parentheses in %q", s)
		}
		if a := strings.TrimSpace(s[start:k]); a != "" || len(d.args) > 0 {
			d.args = append(d.args, a)
		}
		j = k + 1
	}
	if j < len(s) && s[j] != ' ' && s[j] != '\t' {
		return nil, "", fmt.Errorf("unexpected %q after directive %q", s[j:], s[:j])
	}
	d.text = s[:j]
	for _, a := range d.args {
		if a == "" {
			return nil, "", fmt.Errorf("empty argument in %q", d.text)
		}
	}
	return d, s[j:], nil
}

func parseQual(q string) (expQual, error) {
	if a, err := callgraph.ParseAlgorithm(q); err == nil {
		return expQual{algo: a}, nil
	}
	if rest, ok := strings.CutPrefix(q, "level"); ok {
		for _, op := range []string{">=", "<=", "=", ">", "<"} {
			if v, ok := strings.CutPrefix(rest, op); ok {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > int(callgraph.CorrectJDK) {
					return expQual{}, fmt.Errorf("bad level in qualifier %q", q)
				}
				return expQual{op: op, level: n}, nil
			}
		}
	}
	return expQual{}, fmt.Errorf("unknown qualifier %q (want cha, rta, xta, level=N, level>=N, ...)", q)
}

// addDirective validates a parsed directive and records it (or the program option it
// sets).
func (p *expProgram) addDirective(d *expDirective, at int) error {
	switch d.name {
	case "levels", "algos", "library", "jars", "release":
		if d.neg || len(d.quals) > 0 {
			return fmt.Errorf("@%s takes neither ! nor qualifiers", d.name)
		}
	}
	switch d.name {
	case "levels":
		var ls []callgraph.Level
		for _, a := range d.args {
			if a == "all" {
				ls = append(ls, callgraph.Levels...)
				continue
			}
			lo, hi, isRange := strings.Cut(a, "-")
			if !isRange {
				hi = lo
			}
			l, err1 := strconv.Atoi(lo)
			h, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil || l < 1 || h > int(callgraph.CorrectJDK) || l > h {
				return fmt.Errorf("bad level %q", a)
			}
			for v := l; v <= h; v++ {
				ls = append(ls, callgraph.Level(v))
			}
		}
		slices.Sort(ls)
		ls = slices.Compact(ls)
		if len(ls) == 0 || (p.levels != nil && !slices.Equal(p.levels, ls)) {
			return fmt.Errorf("conflicting or empty @levels")
		}
		p.levels = ls
		return nil
	case "algos":
		var as []callgraph.Algorithm
		for _, a := range d.args {
			alg, err := callgraph.ParseAlgorithm(a)
			if err != nil {
				return err
			}
			as = append(as, alg)
		}
		// In Algorithms' order, from the least precise: each refines the one before.
		slices.SortFunc(as, func(x, y callgraph.Algorithm) int {
			return slices.Index(callgraph.Algorithms, x) - slices.Index(callgraph.Algorithms, y)
		})
		as = slices.Compact(as)
		if len(as) == 0 || (p.algos != nil && !slices.Equal(p.algos, as)) {
			return fmt.Errorf("conflicting or empty @algos")
		}
		p.algos = as
		return nil
	case "library":
		if len(d.args) > 0 {
			return fmt.Errorf("@library takes no arguments")
		}
		p.library = true
		return nil
	case "jars":
		if len(d.args) == 0 || p.jars != nil {
			return fmt.Errorf("@jars needs jar names, once")
		}
		for _, a := range d.args {
			p.jars = append(p.jars, filepath.Join("/usr/share/java", a))
		}
		return nil
	case "release":
		n, err := strconv.Atoi(strings.Join(d.args, ""))
		if len(d.args) != 1 || err != nil || n < 8 || p.release != 0 {
			return fmt.Errorf("@release needs one release number, once")
		}
		p.release = n
		return nil
	case "calls", "callees":
		if len(d.args) == 0 && !(d.name == "callees" && !d.neg) {
			return fmt.Errorf("@%s needs methods", d.name)
		}
		if d.name == "callees" && d.neg {
			return fmt.Errorf("@!callees is meaningless: use @!calls")
		}
	case "edge":
		if len(d.args) < 2 {
			return fmt.Errorf("@edge needs (from, to, ...)")
		}
	case "because":
		if len(d.args) != 3 || d.args[2] == "" {
			return fmt.Errorf("@because needs (from, to, text)")
		}
	case "evidence":
		if len(d.args) != 2 || d.args[1] == "" {
			return fmt.Errorf("@evidence needs (method, text)")
		}
	case "reachable":
	case "site":
		if d.neg {
			if len(d.args) > 1 {
				return fmt.Errorf("@!site takes at most a feature")
			}
			if len(d.args) == 1 {
				if _, ok := parseFeature(d.args[0]); !ok {
					return fmt.Errorf("unknown feature %q", d.args[0])
				}
			}
		} else {
			if len(d.args) < 1 || len(d.args) > 2 {
				return fmt.Errorf("@site needs (status[, feature])")
			}
			if _, ok := parseStatus(d.args[0]); !ok {
				return fmt.Errorf("unknown status %q (want resolved, unresolved, partial, specified)", d.args[0])
			}
			if len(d.args) == 2 {
				if _, ok := parseFeature(d.args[1]); !ok {
					return fmt.Errorf("unknown feature %q", d.args[1])
				}
			}
		}
	default:
		return fmt.Errorf("unknown directive @%s", d.name)
	}
	if lineDirectives[d.name] || (d.name == "reachable" && len(d.args) == 0) {
		if at == 0 {
			return fmt.Errorf("no code line above to attach to")
		}
		d.at = at
	}
	p.dirs = append(p.dirs, d)
	return nil
}

func parseStatus(s string) (callgraph.Status, bool) {
	switch s {
	case "resolved":
		return callgraph.Resolved, true
	case "unresolved":
		return callgraph.Unresolved, true
	case "partial":
		return callgraph.Partial, true
	case "specified":
		return callgraph.Specified, true
	}
	return 0, false
}

func parseFeature(s string) (callgraph.Feature, bool) {
	for _, f := range callgraph.Features {
		if strings.EqualFold(f.String(), s) {
			return f, true
		}
	}
	return 0, false
}

// expRun is one analysis run of a group.
type expRun struct {
	algo callgraph.Algorithm
	g    *callgraph.Graph
}

func (r expRun) String() string { return fmt.Sprintf("%s/%d", r.algo, r.g.Level) }

// checkGroup compiles and analyses programs that share their runs, then checks each
// program's expectations and the subgraph invariants.
func checkGroup(t *testing.T, progs []*expProgram) {
	ctx := context.Background()
	var sources []classpath.Source
	owner := map[string]*expProgram{} // package -> program
	first := progs[0]
	for _, jar := range first.jars {
		if _, err := os.Stat(jar); err != nil {
			t.Skipf("%v: .ci/run installs the Debian package that provides it", err)
		}
	}
	release := 17
	if first.release != 0 {
		release = first.release
	}
	for _, p := range progs {
		p.classes = javatest.Compile(t, p.src, javatest.Release(release), javatest.ClassPath(p.jars...))
		if res := filepath.Join(p.src, "..", "resources"); isDir(res) {
			// The compiled classes are a shared cache entry: copy them.
			dir := t.TempDir()
			javatest.CopyTree(t, p.classes, dir)
			javatest.CopyTree(t, res, dir)
			p.classes = dir
		}
		p.names, p.pkgs = map[string]bool{}, map[string]bool{}
		err := filepath.WalkDir(p.classes, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".class") {
				return err
			}
			rel, _ := filepath.Rel(p.classes, path)
			name := strings.TrimSuffix(filepath.ToSlash(rel), ".class")
			p.names[name] = true
			p.pkgs[hierarchy.Package(name)] = true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for pkg := range p.pkgs {
			if o := owner[pkg]; o != nil {
				t.Fatalf("programs %s and %s share package %q: give each program its own packages", o.name, p.name, pkg)
			}
			owner[pkg] = p
		}
		sources = append(sources, classpath.Source{Path: p.classes, Origin: classpath.Application})
	}
	for _, jar := range first.jars {
		sources = append(sources, classpath.Source{Path: jar, Origin: classpath.Library})
	}
	t0 := time.Now()
	ix, err := index.Build(ctx, index.Config{Sources: sources}, expFactsCache)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	bindErrs := map[*expProgram][]string{}
	for _, p := range progs {
		bindErrs[p] = p.bind(h)
	}
	a := New(ix)
	byAlgo := map[callgraph.Algorithm][]*callgraph.Graph{}
	var runs []expRun
	for _, algo := range first.algos {
		for _, l := range first.levels {
			t1 := time.Now()
			g, err := a.Run(ctx, Options{Level: l, Algorithm: algo, LibraryMode: first.library})
			if err != nil {
				t.Fatalf("%s level %d: %v", algo, l, err)
			}
			t.Logf("%s level %d: %d reachable, %d bundles, %v", algo, l, g.NumReachable(), len(g.Bundles), time.Since(t1).Round(time.Millisecond))
			if algo == callgraph.CHA && (l == first.levels[0] || l == first.levels[len(first.levels)-1]) {
				checkRevisit(t, a, Options{Level: l, Algorithm: algo, LibraryMode: first.library}, g, progs)
			}
			runs = append(runs, expRun{algo, g})
			byAlgo[algo] = append(byAlgo[algo], g)
		}
	}
	t.Logf("index and %d runs: %v", len(runs), time.Since(t0).Round(time.Millisecond))
	for _, p := range progs {
		t.Run(strings.TrimPrefix(p.name, "testdata/java/cg/"), func(t *testing.T) {
			if errs := bindErrs[p]; len(errs) > 0 {
				// An expectation naming a missing method or a line without code would
				// check nothing: fail without checking the others.
				t.Fatalf("bad expectations:\n%s", strings.Join(errs, "\n"))
			}
			p.check(t, h, runs)
		})
	}
	t.Run("subgraph", func(t *testing.T) {
		for _, algo := range first.algos {
			graphcheck.CheckSubgraph(t, byAlgo[algo], h)
		}
		// Each algorithm refines the ones before it (RTA refines CHA, XTA RTA): at
		// each level its graph is a subgraph of theirs.
		for j := 1; j < len(first.algos); j++ {
			for i := range first.levels {
				graphcheck.CheckSubgraph(t, []*callgraph.Graph{byAlgo[first.algos[j-1]][i], byAlgo[first.algos[j]][i]}, h)
			}
		}
	})
}

// bind maps the program's files to classes and methods and resolves the methods its
// directives name. Problems are test failures: an expectation that names nothing
// checks nothing.
func (p *expProgram) bind(h *hierarchy.Hierarchy) (errs []string) {
	byFile := map[string]*expFile{}
	for _, f := range p.files {
		byFile[f.pkg+"/"+f.base] = f
		f.lineSet = map[int]bool{}
		f.codeLines = map[*hierarchy.Method][]int{}
	}
	for _, c := range h.Classes() {
		cf := h.File(c)
		if c.Phantom || !p.names[c.Name] || cf == nil {
			continue
		}
		f := byFile[c.Package()+"/"+cf.SourceFile]
		if f == nil {
			errs = append(errs, fmt.Sprintf("%s: class %s has no source file %s in the program", p.name, c.Name, cf.SourceFile))
			continue
		}
		f.classes = append(f.classes, c)
		for _, m := range c.Methods {
			f.methods = append(f.methods, m)
			f.codeLines[m] = methodLines(h, m)
			for _, l := range f.codeLines[m] {
				f.lineSet[l] = true
			}
		}
	}
	for _, d := range p.dirs {
		if d.at > 0 && !d.file.lineSet[d.at] && !(d.name == "reachable") {
			errs = append(errs, fmt.Sprintf("%s: %s: line %d has no code in any method", d.pos(), d.text, d.at))
		}
		switch d.name {
		case "calls", "callees", "edge", "because", "evidence":
			args := d.args
			switch d.name {
			case "because":
				args = args[:2]
			case "evidence":
				args = args[:1]
			}
			for _, a := range args {
				ids, err := graphcheck.ResolveMethods(h, a)
				if err != nil {
					errs = append(errs, fmt.Sprintf("%s: %s: %v", d.pos(), d.text, err))
				}
				d.targets = append(d.targets, ids)
			}
		case "reachable":
			if len(d.args) > 0 {
				for _, a := range d.args {
					ids, err := graphcheck.ResolveMethods(h, a)
					if err != nil {
						errs = append(errs, fmt.Sprintf("%s: %s: %v", d.pos(), d.text, err))
					}
					d.targets = append(d.targets, ids)
				}
				continue
			}
			m, err := d.file.declaredAt(d.at)
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s: %s: %v", d.pos(), d.text, err))
			}
			d.decl = m
		}
	}
	return errs
}

// methodLines returns the lines of a method's LineNumberTable.
func methodLines(h *hierarchy.Hierarchy, m *hierarchy.Method) []int {
	if h.File(m.Class) == nil {
		return nil
	}
	code, err := h.Info(m).Code()
	if err != nil || code == nil {
		return nil
	}
	var ls []int
	for _, ln := range code.Lines() {
		ls = append(ls, int(ln.Line))
	}
	return ls
}

// declaredAt finds the method declared on a source line: the identifier before the
// first "(" names it (a class's simple name names its constructors, "static {" the
// class initialiser), and among the file's methods of that name the one whose code
// starts nearest at or below the line is it.
func (f *expFile) declaredAt(line int) (*hierarchy.Method, error) {
	code := f.lines[line-1]
	if i := strings.Index(code, "//"); i >= 0 {
		code = code[:i]
	}
	var name string
	if strings.Contains(strings.ReplaceAll(code, " ", ""), "static{") {
		name = "<clinit>"
	} else {
		i := strings.IndexByte(code, '(')
		if i < 0 {
			return nil, fmt.Errorf("no method declaration on line %d", line)
		}
		j := i
		for j > 0 && isIdent(code[j-1]) {
			j--
		}
		name = code[j:i]
		if name == "" {
			return nil, fmt.Errorf("no method name before '(' on line %d", line)
		}
		for _, c := range f.classes {
			simple := c.Name[strings.LastIndexAny(c.Name, "/$")+1:]
			if simple == name {
				name = "<init>"
				break
			}
		}
	}
	var best *hierarchy.Method
	bestDist, ties := -1, 0
	for _, m := range f.methods {
		if m.Name != name {
			continue
		}
		dist := -1
		for _, l := range f.codeLines[m] {
			if l >= line && (dist < 0 || l-line < dist) {
				dist = l - line
			}
		}
		switch {
		case dist < 0:
		case bestDist < 0 || dist < bestDist:
			best, bestDist, ties = m, dist, 0
		case dist == bestDist:
			ties++
		}
	}
	if best == nil {
		return nil, fmt.Errorf("no method %s with code at or after line %d (abstract? write @reachable(pkg.Class.name))", name, line)
	}
	if ties > 0 {
		return nil, fmt.Errorf("method %s on line %d is ambiguous: write @reachable(pkg.Class.name(desc))", name, line)
	}
	return best, nil
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// check checks a program's expectations against every run.
func (p *expProgram) check(t *testing.T, h *hierarchy.Hierarchy, runs []expRun) {
	type failure struct {
		d    *expDirective
		msg  string
		runs []string
	}
	var fails []*failure
	byKey := map[string]*failure{}
	for _, r := range runs {
		for _, d := range p.dirs {
			if !d.applies(r.algo, r.g.Level) {
				continue
			}
			d.applied++
			msg := p.checkOne(h, r.g, d)
			if msg == "" {
				continue
			}
			// Group the runs that fail the same way; the detail (what the line
			// calls) is shown for the first of them.
			summary := msg
			for _, sep := range []string{"; got ", "; callees of "} {
				if i := strings.Index(summary, sep); i >= 0 {
					summary = summary[:i]
				}
			}
			k := d.pos() + "\x00" + d.text + "\x00" + summary
			if f := byKey[k]; f != nil {
				f.runs = append(f.runs, r.String())
				continue
			}
			f := &failure{d: d, msg: msg, runs: []string{r.String()}}
			byKey[k] = f
			fails = append(fails, f)
		}
	}
	slices.SortStableFunc(fails, func(a, b *failure) int {
		if c := strings.Compare(a.d.file.rel, b.d.file.rel); c != 0 {
			return c
		}
		return a.d.line - b.d.line
	})
	for _, f := range fails {
		t.Errorf("%s: %s [%s]: %s", f.d.pos(), f.d.text, strings.Join(f.runs, " "), f.msg)
	}
	for _, d := range p.dirs {
		if d.applied == 0 {
			t.Errorf("%s: %s: applies to no run of this program (levels %v, algorithms %v)", d.pos(), d.text, p.levels, p.algos)
		}
	}
}

// checkOne checks one directive against one graph and returns "" or what is wrong.
func (p *expProgram) checkOne(h *hierarchy.Hierarchy, g *callgraph.Graph, d *expDirective) string {
	switch d.name {
	case "calls", "callees":
		callees, callers := lineCallees(g, d.file, d.at)
		if !d.neg && len(callees) == 0 {
			return "no edges from this line" + p.unreachableNote(h, g, d.file, d.at)
		}
		has := func(ids []int32) bool {
			for _, id := range ids {
				if id == graphcheck.NativeNode {
					id = g.Native
				}
				if _, ok := slices.BinarySearch(callees, id); ok {
					return true
				}
			}
			return false
		}
		var missing, extra []string
		for i, ids := range d.targets {
			if has(ids) == d.neg {
				missing = append(missing, d.args[i])
			}
		}
		if d.name == "callees" {
			for _, id := range callees {
				if id == g.Native || !p.names[h.Methods()[id].Class.Name] {
					continue
				}
				matched := false
				for _, ids := range d.targets {
					if slices.Contains(ids, id) {
						matched = true
						break
					}
				}
				if !matched {
					extra = append(extra, graphcheck.MethodName(h, g, id))
				}
			}
		}
		if len(missing) == 0 && len(extra) == 0 {
			return ""
		}
		var parts []string
		if len(missing) > 0 {
			verb := "missing"
			if d.neg {
				verb = "present"
			}
			parts = append(parts, verb+" "+strings.Join(missing, ", "))
		}
		if len(extra) > 0 {
			parts = append(parts, "unexpected "+strings.Join(extra, ", "))
		}
		return strings.Join(parts, "; ") + "; got " + p.describe(h, g, callees) + " from " + describeCallers(h, callers)
	case "edge":
		var from []int32
		for _, f := range d.targets[0] {
			if f == graphcheck.NativeNode {
				f = g.Native
			}
			from = append(from, f)
		}
		var wrong []string
		for i, to := range d.targets[1:] {
			found := false
			for _, f := range from {
				for _, c := range to {
					if c == graphcheck.NativeNode {
						c = g.Native
					}
					if g.HasEdge(f, c) {
						found = true
					}
				}
			}
			if found == d.neg {
				wrong = append(wrong, d.args[i+1])
			}
		}
		if len(wrong) == 0 {
			return ""
		}
		if d.neg {
			return "edges present to " + strings.Join(wrong, ", ")
		}
		reach := ""
		if !slices.ContainsFunc(from, g.Reachable.Has) {
			reach = " (not reachable)"
		}
		var got []int32
		for _, f := range from {
			got = append(got, calleesOf(g, f)...)
		}
		slices.Sort(got)
		return "no edges to " + strings.Join(wrong, ", ") + "; callees of " + d.args[0] + reach + ": " + p.describe(h, g, slices.Compact(got))
	case "because":
		for _, from := range d.targets[0] {
			for _, b := range g.Callees(from) {
				if strings.Contains(g.Reasons[b.Reason].Evidence, d.args[2]) && slices.ContainsFunc(g.Sets[b.Set], func(id int32) bool {
					return slices.Contains(d.targets[1], id)
				}) {
					if d.neg {
						return "an edge to " + d.args[1] + " because: " + g.Reasons[b.Reason].Evidence
					}
					return ""
				}
			}
		}
		if d.neg {
			return ""
		}
		var why []string
		for _, from := range d.targets[0] {
			for _, b := range g.Callees(from) {
				if slices.ContainsFunc(g.Sets[b.Set], func(id int32) bool { return slices.Contains(d.targets[1], id) }) {
					why = append(why, g.Reasons[b.Reason].Evidence)
				}
			}
		}
		return fmt.Sprintf("no edge to %s because %q; its edges' reasons: %q", d.args[1], d.args[2], why)
	case "evidence":
		var got []string
		found := false
		for _, m := range d.targets[0] {
			for _, st := range g.SitesOf(m) {
				got = append(got, st.Evidence)
				found = found || strings.Contains(st.Evidence, d.args[1])
			}
		}
		switch {
		case found != d.neg:
			return ""
		case d.neg:
			return fmt.Sprintf("a site's evidence contains %q: %q", d.args[1], got)
		}
		return fmt.Sprintf("no site whose evidence contains %q; the sites': %q", d.args[1], got)
	case "reachable":
		check := func(id int32, what string) string {
			if id == graphcheck.NativeNode {
				id = g.Native
			}
			if g.Reachable.Has(id) == d.neg {
				if d.neg {
					return what + " is reachable"
				}
				return what + " is not reachable"
			}
			return ""
		}
		if d.decl != nil {
			return check(d.decl.ID, graphcheck.MethodName(h, g, d.decl.ID))
		}
		var msgs []string
		for i, ids := range d.targets {
			any := false
			for _, id := range ids {
				if id == graphcheck.NativeNode {
					id = g.Native
				}
				if g.Reachable.Has(id) {
					any = true
				}
			}
			if any == d.neg {
				msgs = append(msgs, check(ids[0], d.args[i]))
			}
		}
		return strings.Join(msgs, "; ")
	case "site":
		var sites []callgraph.Site
		var all []string
		for _, m := range d.file.methods {
			for _, s := range g.SitesOf(m.ID) {
				if int(s.Line) != d.at {
					continue
				}
				all = append(all, fmt.Sprintf("%s %s %s", s.API, s.Feature, s.Status))
				if len(d.args) > 0 {
					fa := d.args[len(d.args)-1]
					if d.neg || len(d.args) == 2 {
						if f, _ := parseFeature(fa); f != s.Feature {
							continue
						}
					}
				}
				sites = append(sites, s)
			}
		}
		got := "; sites on the line: [" + strings.Join(all, ", ") + "]"
		if d.neg {
			if len(sites) > 0 {
				return "has a dynamic site" + got
			}
			return ""
		}
		if len(sites) == 0 {
			return "no dynamic site" + got
		}
		want, _ := parseStatus(d.args[0])
		for _, s := range sites {
			if s.Status != want {
				return "a site is " + s.Status.String() + got
			}
		}
	}
	return ""
}

// lineCallees returns the sorted callees of the edges from a source line, over every
// method compiled from the file, and the methods with edges from that line.
func lineCallees(g *callgraph.Graph, f *expFile, line int) (callees []int32, callers []*hierarchy.Method) {
	for _, m := range f.methods {
		seen := false
		for _, b := range g.Callees(m.ID) {
			if int(b.Line) != line {
				continue
			}
			if !seen {
				callers = append(callers, m)
				seen = true
			}
			callees = append(callees, g.Sets[b.Set]...)
		}
	}
	slices.Sort(callees)
	return slices.Compact(callees), callers
}

func calleesOf(g *callgraph.Graph, n int32) []int32 {
	var out []int32
	for _, b := range g.Callees(n) {
		out = append(out, g.Sets[b.Set]...)
	}
	return out
}

// unreachableNote explains a line without edges when its methods are not reachable.
func (p *expProgram) unreachableNote(h *hierarchy.Hierarchy, g *callgraph.Graph, f *expFile, line int) string {
	var un []string
	for _, m := range f.methods {
		if slices.Contains(f.codeLines[m], line) && !g.Reachable.Has(m.ID) {
			un = append(un, graphcheck.MethodName(h, g, m.ID))
		}
	}
	if len(un) == 0 {
		return ""
	}
	return " (not reachable: " + strings.Join(un, ", ") + ")"
}

// describe renders a sorted callee list: every callee of the program's own classes,
// and the others up to a limit.
func (p *expProgram) describe(h *hierarchy.Hierarchy, g *callgraph.Graph, ids []int32) string {
	const maxOther = 8
	var own, other []string
	for _, id := range ids {
		s := graphcheck.MethodName(h, g, id)
		if id != g.Native && p.names[h.Methods()[id].Class.Name] {
			own = append(own, s)
		} else {
			other = append(other, s)
		}
	}
	slices.Sort(own)
	slices.Sort(other)
	out := own
	more := 0
	if len(other) > maxOther {
		more = len(other) - maxOther
		other = other[:maxOther]
	}
	out = append(out, other...)
	s := "[" + strings.Join(out, " ") + "]"
	if more > 0 {
		s += fmt.Sprintf(" (+%d more outside the program)", more)
	}
	return s
}

func describeCallers(h *hierarchy.Hierarchy, ms []*hierarchy.Method) string {
	if len(ms) == 0 {
		return "no method"
	}
	var ss []string
	for _, m := range ms {
		ss = append(ss, strings.ReplaceAll(m.Class.Name, "/", ".")+"."+m.Name)
	}
	return strings.Join(ss, ", ")
}

// checkRevisit visits every reachable method of the programs' classes again as an
// update in place would (revisit, without the checks that decide whether a change
// may be updated in place: nothing changed) and checks that the patched graph is the
// run's: the probe reproduces each method's bundles and sites, lambdas, reflection,
// method handles and all, from the inherited lambda sets.
func checkRevisit(t *testing.T, a *Analyzer, opts Options, want *callgraph.Graph, progs []*expProgram) {
	t.Helper()
	ctx := context.Background()
	g, tr, err := a.RunTrace(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	h := a.Hierarchy()
	inD := callgraph.NewBitset(len(h.Methods()) + 1)
	var visit []*hierarchy.Method
	for _, p := range progs {
		for name := range p.names {
			c := h.Class(name)
			if c == nil {
				continue
			}
			for _, m := range c.Methods {
				inD.Add(m.ID)
				if g.Reachable.Has(m.ID) {
					visit = append(visit, m)
				}
			}
		}
	}
	got, _, err := a.revisit(ctx, opts, Previous{Analyzer: a, Graph: g, Trace: tr}, nil, visit, inD, nil)
	if err != nil {
		t.Logf("level %d: revisiting every method of the programs declined: %v", opts.Level, err)
		return
	}
	if d := graphtext.Compare(h, got, want); d != "" {
		t.Errorf("level %d: revisiting every method of the programs changed the graph:\n%s", opts.Level, d)
	}
}
