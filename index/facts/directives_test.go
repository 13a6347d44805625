package facts

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// This file checks Analyze against the DEFS, POSTDOM and NOPOSTDOM directives written
// next to the Java sources of a test program (grammar: testdata/java/README.md):
//
//	return Class.forName(name); // DEFS invokestatic java/lang/Class.forName arg0: ldc "a" | ldc "b"
//	Object o = c.newInstance(); // POSTDOM invokevirtual java/lang/Class.newInstance -> checkcast flow/Plugin
//
// Selectors are resolved to instructions through the LineNumberTable, our Defs are
// rendered in the directive notation, and sets are compared as sorted text, so a
// failure names the Java file and line and shows both sides.

// program is a compiled test program, indexed by source file and line.
type program struct {
	byLine map[string]map[int][]*insn // SourceFile -> line -> instructions
	flows  map[*classfile.Method]*Flow
}

// insn is one instruction of a compiled method.
type insn struct {
	f    *classfile.File
	m    *classfile.Method
	code *classfile.Code
	in   bytecode.Instr
	line int
	sel  string // the directive selector of the instruction
}

func loadProgram(t *testing.T, name string) *program {
	t.Helper()
	dir := javatest.Compile(t, javatest.Program(t, name), javatest.Release(17))
	p := &program{byLine: map[string]map[int][]*insn{}, flows: map[*classfile.Method]*Flow{}}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".class") {
			return err
		}
		f, err := classfile.Open(path)
		if err != nil {
			return err
		}
		if _, err := Extract(f); err != nil {
			return err
		}
		for i := range f.Methods {
			m := &f.Methods[i]
			code, err := m.Code()
			if err != nil || code == nil {
				if err != nil {
					return err
				}
				continue
			}
			fl, err := Analyze(f, m)
			if err != nil {
				return err
			}
			checkFlow(t, path, f, m, fl)
			p.flows[m] = fl
			lines := p.byLine[f.SourceFile]
			if lines == nil {
				lines = map[int][]*insn{}
				p.byLine[f.SourceFile] = lines
			}
			err = bytecode.Walk(code.Bytecode, func(in bytecode.Instr) error {
				l := code.LineAt(in.PC)
				lines[l] = append(lines[l], &insn{f: f, m: m, code: code, in: in, line: l, sel: selector(f.Pool, in)})
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// selector renders an instruction in the directive notation.
func selector(p *classfile.Pool, in bytecode.Instr) string {
	switch in.Op {
	case bytecode.Invokevirtual, bytecode.Invokespecial, bytecode.Invokestatic, bytecode.Invokeinterface,
		bytecode.Getfield, bytecode.Putfield, bytecode.Getstatic, bytecode.Putstatic:
		r := p.Ref(in.Index)
		return in.Op.String() + " " + r.Class + "." + r.Name
	case bytecode.Invokedynamic:
		_, name, _ := p.Dynamic(in.Index)
		return "invokedynamic " + name
	case bytecode.New, bytecode.Anewarray, bytecode.Checkcast, bytecode.Instanceof:
		return in.Op.String() + " " + p.ClassName(in.Index)
	}
	return in.Op.String()
}

// constant renders a constant push as `ldc <literal>`, or "" for other instructions.
func constant(p *classfile.Pool, in bytecode.Instr) string {
	float := func(v float64, suffix string) string {
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eEIN") && !math.IsInf(v, 0) {
			s += ".0"
		}
		return "ldc " + s + suffix
	}
	switch in.Op {
	case bytecode.AconstNull:
		return "ldc null"
	case bytecode.IconstM1, bytecode.Iconst0, bytecode.Iconst1, bytecode.Iconst2, bytecode.Iconst3,
		bytecode.Iconst4, bytecode.Iconst5, bytecode.Bipush, bytecode.Sipush:
		return "ldc " + strconv.Itoa(int(in.Value))
	case bytecode.Lconst0, bytecode.Lconst1:
		return fmt.Sprintf("ldc %dL", in.Op-bytecode.Lconst0)
	case bytecode.Fconst0, bytecode.Fconst1, bytecode.Fconst2:
		return float(float64(in.Op-bytecode.Fconst0), "F")
	case bytecode.Dconst0, bytecode.Dconst1:
		return float(float64(in.Op-bytecode.Dconst0), "D")
	case bytecode.Ldc, bytecode.LdcW, bytecode.Ldc2W:
		switch p.Tag(in.Index) {
		case classfile.TagString:
			return `ldc "` + p.String(in.Index) + `"`
		case classfile.TagInteger:
			return "ldc " + strconv.Itoa(int(p.Int(in.Index)))
		case classfile.TagLong:
			return fmt.Sprintf("ldc %dL", p.Long(in.Index))
		case classfile.TagFloat:
			return float(float64(p.Float(in.Index)), "F")
		case classfile.TagDouble:
			return float(p.Double(in.Index), "D")
		case classfile.TagClass:
			return "ldc " + p.ClassName(in.Index) + ".class"
		}
	}
	return ""
}

// defString renders one of our Defs for instruction x's method in directive notation.
func (p *program) defString(x *insn, d Def) string {
	switch d.Kind {
	case DefParam:
		if x.m.IsStatic() {
			return "param " + strconv.Itoa(d.N)
		}
		if d.N == 0 {
			return "this"
		}
		return "param " + strconv.Itoa(d.N-1)
	case DefInstr:
		in, err := bytecode.Decode(x.code.Bytecode, d.N)
		if err != nil {
			return fmt.Sprintf("bad pc %d", d.N)
		}
		if c := constant(x.f.Pool, in); c != "" {
			return c
		}
		return selector(x.f.Pool, in)
	case DefCaught:
		for _, h := range x.code.Handlers {
			if int(h.HandlerPC) == d.N {
				if h.CatchType == "" {
					return "catch any"
				}
				return "catch " + h.CatchType
			}
		}
		return fmt.Sprintf("catch at %d?", d.N)
	}
	return "unknown"
}

// operandNames names the operands of an instruction as the directives do.
func operandNames(op bytecode.Opcode, n int) []string {
	var names []string
	switch {
	case op == bytecode.Invokestatic || op == bytecode.Invokedynamic:
		for i := range n {
			names = append(names, "arg"+strconv.Itoa(i))
		}
	case op.IsInvoke():
		names = append(names, "recv")
		for i := range n - 1 {
			names = append(names, "arg"+strconv.Itoa(i))
		}
	case op == bytecode.Putfield:
		names = []string{"recv", "value"}
	case op >= bytecode.Iastore && op <= bytecode.Sastore:
		names = []string{"array", "index", "value"}
	case op >= bytecode.Iaload && op <= bytecode.Saload:
		names = []string{"array", "index"}
	case n == 1:
		names = []string{"value"}
	default:
		for i := range n {
			names = append(names, "op"+strconv.Itoa(i))
		}
	}
	return names
}

var directiveRE = regexp.MustCompile(`//\s*(DEFS|POSTDOM|NOPOSTDOM) (.*)$`)

// directive is one parsed expectation comment.
type directive struct {
	file       string // base name of the Java file
	line       int    // the attached code line
	srcLine    int    // the line the comment is on
	kind, text string
}

func (d directive) String() string {
	return fmt.Sprintf("%s:%d: %s %s", d.file, d.srcLine, d.kind, d.text)
}

// readDirectives returns the flow directives of every Java file under dir.
func readDirectives(t *testing.T, dir string) []directive {
	t.Helper()
	var out []directive
	javatest.Sources(t, dir, func(path string, src []byte) {
		sc := bufio.NewScanner(bytes.NewReader(src))
		lastCode := 0
		for n := 1; sc.Scan(); n++ {
			text := sc.Text()
			trim := strings.TrimSpace(text)
			isCode := trim != "" && !strings.HasPrefix(trim, "//") && !strings.HasPrefix(trim, "/*") && !strings.HasPrefix(trim, "*")
			if isCode {
				lastCode = n
			}
			m := directiveRE.FindStringSubmatch(text)
			if m == nil {
				continue
			}
			at := lastCode
			if isCode {
				at = n
			}
			out = append(out, directive{file: filepath.Base(path), line: at, srcLine: n, kind: m[1], text: m[2]})
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	})
	return out
}

// find returns the one instruction on the directive's line matching sel.
func (p *program) find(d directive, sel string) (*insn, error) {
	var found []*insn
	for _, x := range p.byLine[d.file][d.line] {
		if x.sel == sel {
			found = append(found, x)
		}
	}
	if len(found) != 1 {
		return nil, fmt.Errorf("selector %q matches %d instructions on line %d", sel, len(found), d.line)
	}
	return found[0], nil
}

// findInMethod returns the one instruction of x's method matching sel.
func (p *program) findInMethod(x *insn, sel string) (*insn, error) {
	var found []*insn
	for _, byLine := range p.byLine {
		for _, xs := range byLine {
			for _, y := range xs {
				if y.m == x.m && y.sel == sel {
					found = append(found, y)
				}
			}
		}
	}
	if len(found) != 1 {
		return nil, fmt.Errorf("selector %q matches %d instructions of %s.%s", sel, len(found), x.f.Name, x.m.Name)
	}
	return found[0], nil
}

// splitSelector splits "invokestatic a/B.m rest" into the selector and the rest: a
// selector is the mnemonic plus, for the opcodes that name a member or class, one
// more token.
func splitSelector(s string) (sel, rest string) {
	first, rest, _ := strings.Cut(s, " ")
	switch first {
	case "invokevirtual", "invokespecial", "invokestatic", "invokeinterface", "invokedynamic",
		"getfield", "putfield", "getstatic", "putstatic", "new", "anewarray", "checkcast", "instanceof":
		second, r, _ := strings.Cut(rest, " ")
		return first + " " + second, r
	}
	return first, rest
}

// checkDirective checks one directive and returns what is wrong, or "".
func (p *program) checkDirective(d directive, postdomOverride map[string]bool) string {
	switch d.kind {
	case "DEFS":
		sel, rest := splitSelector(d.text)
		x, err := p.find(d, sel)
		if err != nil {
			return err.Error()
		}
		ops := p.flows[x.m].Operands(x.in.PC)
		if ops == nil {
			return "instruction not reachable"
		}
		names := operandNames(x.in.Op, len(ops))
		got := map[string]string{}
		for i, o := range ops {
			var s []string
			for _, def := range o {
				s = append(s, p.defString(x, def))
			}
			slices.Sort(s)
			got[names[i]] = strings.Join(s, " | ")
		}
		var problems []string
		for _, group := range strings.Split(rest, "; ") {
			name, defs, ok := strings.Cut(group, ": ")
			if !ok {
				return "malformed operand group " + group
			}
			want := strings.Split(defs, " | ")
			slices.Sort(want)
			if w := strings.Join(want, " | "); got[name] != w {
				problems = append(problems, fmt.Sprintf("%s: got %s, want %s", name, got[name], w))
			}
		}
		return strings.Join(problems, "; ")
	default: // POSTDOM, NOPOSTDOM
		from, to, ok := strings.Cut(d.text, " -> ")
		if !ok {
			return "malformed directive"
		}
		a, err := p.find(d, from)
		if err != nil {
			return err.Error()
		}
		b, err := p.findInMethod(a, to)
		if err != nil {
			return err.Error()
		}
		want := d.kind == "POSTDOM"
		if w, ok := postdomOverride[fmt.Sprintf("%s:%d", d.file, d.srcLine)]; ok {
			want = w
		}
		if got := p.flows[a.m].PostDominates(b.in.PC, a.in.PC); got != want {
			return fmt.Sprintf("PostDominates(%d, %d) = %v, want %v", b.in.PC, a.in.PC, got, want)
		}
	}
	return ""
}

func checkProgram(t *testing.T, name string, postdomOverride map[string]bool) {
	p := loadProgram(t, name)
	ds := readDirectives(t, javatest.Program(t, name))
	if len(ds) == 0 {
		t.Fatalf("no directives in program %s", name)
	}
	used := map[string]bool{}
	for _, d := range ds {
		used[fmt.Sprintf("%s:%d", d.file, d.srcLine)] = true
		if msg := p.checkDirective(d, postdomOverride); msg != "" {
			t.Errorf("%v\n\t%s", d, msg)
		}
	}
	for k := range postdomOverride {
		if !used[k] {
			t.Errorf("override %s names no directive: the Java file changed, update the override", k)
		}
	}
	t.Logf("%d directives checked", len(ds))
}

// TestFlowDirectives checks the shared flow program.
func TestFlowDirectives(t *testing.T) {
	checkProgram(t, "flow", nil)
}

// TestFactsDirectives checks this package's own program (testdata/java/facts),
// whose POSTDOM directives include exception edges.
func TestFactsDirectives(t *testing.T) {
	checkProgram(t, "facts", nil)
}

// renderFacts renders every fact of a method in the FACT notation of
// testdata/java/facts/src/facts/Facts.java, keyed by line.
func renderFacts(m *Method, add func(line int32, s string)) {
	for _, c := range m.Calls {
		if c.Indy == nil {
			add(c.Line, fmt.Sprintf("%v %s.%s%s", c.Op, c.Ref.Class, c.Ref.Name, c.Ref.Desc))
			continue
		}
		in := c.Indy
		var args []string
		for _, a := range in.Args {
			args = append(args, renderConstant(a))
		}
		add(c.Line, fmt.Sprintf("invokedynamic %s%s bsm=%d:%s.%s args=%s", in.Name, in.Desc,
			in.BootstrapKind, in.Bootstrap.Class, in.Bootstrap.Name, strings.Join(args, ",")))
	}
	for _, a := range m.Allocs {
		add(a.Line, fmt.Sprintf("%v %s dims=%d", a.Op, a.Type, a.Dims))
	}
	for _, c := range m.ClassConsts {
		add(c.Line, "ldc class "+c.Value)
	}
	for _, c := range m.StringConsts {
		add(c.Line, "ldc string "+quoteJava(c.Value))
	}
	for _, c := range m.TypeChecks {
		op := "checkcast"
		if c.Instanceof {
			op = "instanceof"
		}
		add(c.Line, op+" "+c.Type)
	}
	for _, f := range m.Fields {
		op := map[[2]bool]string{{false, false}: "getfield", {true, false}: "putfield", {false, true}: "getstatic", {true, true}: "putstatic"}[[2]bool{f.Write, f.Static}]
		add(f.Line, fmt.Sprintf("%s %s.%s %s", op, f.Ref.Class, f.Ref.Name, f.Ref.Desc))
	}
}

func renderConstant(c Constant) string {
	switch c.Kind {
	case ConstInt, ConstLong:
		return strconv.FormatInt(c.Int, 10)
	case ConstFloat, ConstDouble:
		return strconv.FormatFloat(c.Float, 'g', -1, 64)
	case ConstString:
		return quoteJava(c.Str)
	case ConstClass:
		return "class " + c.Str
	case ConstMethodType:
		return "type " + c.Str
	case ConstMethodHandle:
		return fmt.Sprintf("handle %d:%s.%s%s", c.RefKind, c.Ref.Class, c.Ref.Name, c.Ref.Desc)
	case ConstDynamic:
		return "dynamic " + c.Dynamic.Name
	}
	return "?"
}

// quoteJava quotes s with Java's \uXXXX escapes for control characters, as the
// directives write them.
func quoteJava(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r < 0x20 {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

var factRE = regexp.MustCompile(`//\s*FACT (.*)$`)

// TestExtractDirectives checks the FACT directives of testdata/java/facts.
func TestExtractDirectives(t *testing.T) {
	dir := javatest.Compile(t, javatest.Program(t, "facts"), javatest.Release(17))
	have := map[string]map[int32][]string{} // SourceFile -> line -> rendered facts
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".class") {
			return err
		}
		f, err := classfile.Open(path)
		if err != nil {
			return err
		}
		c, err := Extract(f)
		if err != nil {
			return err
		}
		if have[f.SourceFile] == nil {
			have[f.SourceFile] = map[int32][]string{}
		}
		for i := range c.Methods {
			if m := &c.Methods[i]; f.Methods[i].HasCode() && (m.FirstLine <= 0 || m.LastLine < m.FirstLine) {
				t.Errorf("%s.%s: lines %d..%d", f.Name, f.Methods[i].Name, m.FirstLine, m.LastLine)
			}
			renderFacts(&c.Methods[i], func(line int32, s string) {
				have[f.SourceFile][line] = append(have[f.SourceFile][line], s)
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	src := javatest.Program(t, "facts")
	n := 0
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".java") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lastCode := 0
		for i, text := range strings.Split(string(data), "\n") {
			trim := strings.TrimSpace(text)
			isCode := trim != "" && !strings.HasPrefix(trim, "//") && !strings.HasPrefix(trim, "/*") && !strings.HasPrefix(trim, "*")
			if isCode {
				lastCode = i + 1
			}
			m := factRE.FindStringSubmatch(text)
			if m == nil {
				continue
			}
			n++
			base := filepath.Base(path)
			got := have[base][int32(lastCode)]
			if !slices.Contains(got, m[1]) {
				t.Errorf("%s:%d: no fact %q on line %d; facts there:\n\t%s", base, i+1, m[1], lastCode, strings.Join(got, "\n\t"))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no FACT directives")
	}
	t.Logf("%d FACT directives checked", n)
}
