package classfile_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

const (
	jdk17 = "/usr/lib/jvm/java-17-openjdk-amd64"
	jdk25 = "/usr/lib/jvm/temurin-25-jdk-amd64"
)

// openJDK opens the image of a JDK installed on this machine, skipping with the
// reason when it is absent (CI installs JDK 17; Temurin 25 is only on some machines).
func openJDK(t testing.TB, home string) *classpath.ClassPath {
	t.Helper()
	if _, err := os.Stat(filepath.Join(home, "lib", "modules")); err != nil {
		t.Skipf("no JDK image at %s (install openjdk-17-jdk-headless / Temurin 25 to run this test)", home)
	}
	cp, err := classpath.Open(context.Background(), classpath.Config{JDKHome: home})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cp.Close() })
	return cp
}

// TestParseWholeJDK parses every class of the JDK 17 and Temurin 25 images, checks
// MethodRefs against Ref, decodes every method body and walks every instruction: none
// may fail.
func TestParseWholeJDK(t *testing.T) {
	for _, home := range []string{jdk17, jdk25} {
		t.Run(filepath.Base(home), func(t *testing.T) {
			cp := openJDK(t, home)
			n, instrs := 0, 0
			for _, c := range cp.Classes {
				f, err := classfile.Parse(c.Data)
				if err != nil {
					t.Errorf("%s: %v", c.Entry, err)
					continue
				}
				if f.Name != c.Name {
					t.Errorf("%s: declares %s", c.Entry, f.Name)
				}
				n++
				if d := methodRefsMismatch(f); d != "" {
					t.Errorf("%s: %s", c.Entry, d)
				}
				for i := range f.Methods {
					code, err := f.Methods[i].Code()
					if err != nil {
						t.Errorf("%s.%s: %v", c.Name, f.Methods[i].Name, err)
						continue
					}
					if code == nil {
						if !f.Methods[i].IsAbstract() && !f.Methods[i].IsNative() {
							t.Errorf("%s.%s: concrete method without code", c.Name, f.Methods[i].Name)
						}
						continue
					}
					if err := bytecode.Walk(code.Bytecode, func(bytecode.Instr) error { instrs++; return nil }); err != nil {
						t.Errorf("%s.%s: %v", c.Name, f.Methods[i].Name, err)
					}
				}
			}
			if n < 20000 {
				t.Errorf("parsed only %d classes", n)
			}
			t.Logf("%d classes, %d instructions", n, instrs)
		})
	}
}

// javapClass is what javap -v -p prints about one class, reduced to what we compare.
type javapClass struct {
	name       string
	methods    []string // "name desc flags"
	attrs      []string // per method: "name desc throws a.B, c.D", then "name desc signature S"
	lines      []string // per method with code: "name desc: line pc, line pc, ..."
	bootstraps []string // "REF_kind owner.name:desc"
}

// TestCrossCheckJavap compares a few hundred JDK classes with javap -v -p: methods
// in order with descriptors and flags, line-number tables and bootstrap methods.
func TestCrossCheckJavap(t *testing.T) {
	cp := openJDK(t, jdk17)
	javap := filepath.Join(jdk17, "bin", "javap")
	if _, err := os.Stat(javap); err != nil {
		t.Skipf("no javap at %s", javap)
	}
	var names []string
	for _, c := range cp.Classes {
		if c.Module == "java.base" && !strings.Contains(c.Name, "module-info") {
			names = append(names, c.Name)
		}
	}
	sort.Strings(names)
	var pick []string
	for i := 0; i < len(names); i += len(names) / 300 {
		pick = append(pick, names[i])
	}
	// Classes that exercise invokedynamic, records, switches and nested classes.
	pick = append(pick, "java/lang/Record", "java/util/stream/Collectors", "java/lang/invoke/StringConcatFactory",
		"java/util/HashMap$TreeNode", "java/lang/String", "java/util/concurrent/ConcurrentHashMap")
	args := []string{"-J-Xshare:auto", "-v", "-p"}
	for _, n := range pick {
		args = append(args, strings.ReplaceAll(n, "/", "."))
	}
	out, err := exec.Command(javap, args...).Output()
	if err != nil {
		t.Fatalf("javap: %v", err)
	}
	got := parseJavap(t, out)
	if len(got) != len(pick) {
		t.Fatalf("javap printed %d classes, want %d", len(got), len(pick))
	}
	var nMethods, nLines, nBSM, nAttrs int
	for _, want := range got {
		nMethods += len(want.methods)
		nLines += len(want.lines)
		nBSM += len(want.bootstraps)
		c := cp.Lookup(want.name)
		if c == nil {
			t.Errorf("%s: not in the image", want.name)
			continue
		}
		f, err := classfile.Parse(c.Data)
		if err != nil {
			t.Errorf("%s: %v", want.name, err)
			continue
		}
		mine := describe(t, f)
		compare(t, want.name+" methods", mine.methods, want.methods)
		compare(t, want.name+" line tables", mine.lines, want.lines)
		compare(t, want.name+" bootstrap methods", mine.bootstraps, want.bootstraps)
		compare(t, want.name+" exceptions and signatures", mine.attrs, want.attrs)
		nAttrs += len(want.attrs)
	}
	// Guard against a javap output format this parser no longer understands.
	if nMethods < 1000 || nLines < 500 || nBSM < 10 || nAttrs < 100 {
		t.Errorf("javap comparison too small: %d methods, %d line tables, %d bootstrap methods, %d exceptions and signatures", nMethods, nLines, nBSM, nAttrs)
	}
	t.Logf("compared %d classes: %d methods, %d line tables, %d bootstrap methods, %d exceptions and signatures", len(got), nMethods, nLines, nBSM, nAttrs)
}

func compare(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s differ:\n ours:  %q\n javap: %q", what, got, want)
	}
}

var refKinds = map[uint8]string{
	classfile.RefGetField: "REF_getField", classfile.RefGetStatic: "REF_getStatic",
	classfile.RefPutField: "REF_putField", classfile.RefPutStatic: "REF_putStatic",
	classfile.RefInvokeVirtual: "REF_invokeVirtual", classfile.RefInvokeStatic: "REF_invokeStatic",
	classfile.RefInvokeSpecial: "REF_invokeSpecial", classfile.RefNewInvokeSpecial: "REF_newInvokeSpecial",
	classfile.RefInvokeInterface: "REF_invokeInterface",
}

func describe(t *testing.T, f *classfile.File) javapClass {
	var d javapClass
	for i := range f.Methods {
		m := &f.Methods[i]
		d.methods = append(d.methods, fmt.Sprintf("%s %s %#04x", m.Name, m.Desc, m.Access))
		if exc := m.Exceptions(); len(exc) > 0 {
			d.attrs = append(d.attrs, m.Name+" "+m.Desc+" throws "+strings.ReplaceAll(strings.Join(exc, ", "), "/", "."))
		}
		if sig := m.Signature(); sig != "" {
			d.attrs = append(d.attrs, m.Name+" "+m.Desc+" signature "+sig)
		}
		code, err := m.Code()
		if err != nil {
			t.Errorf("%s.%s: %v", f.Name, m.Name, err)
			continue
		}
		if code != nil && code.NumLines() > 0 {
			var parts []string
			for _, l := range code.Lines() {
				parts = append(parts, fmt.Sprintf("%d %d", l.Line, l.StartPC))
			}
			d.lines = append(d.lines, m.Name+" "+m.Desc+": "+strings.Join(parts, ", "))
		}
	}
	for _, bm := range f.BootstrapMethods {
		kind, ref := f.Pool.MethodHandle(bm.Ref)
		d.bootstraps = append(d.bootstraps, fmt.Sprintf("%s %s.%s:%s", refKinds[kind], ref.Class, ref.Name, ref.Desc))
	}
	return d
}

var (
	reClassfile = regexp.MustCompile(`^Classfile jrt:/[^/]+/(.+)\.class$`)
	reFlags     = regexp.MustCompile(`^    flags: \((0x[0-9a-f]+)\)`)
	reDesc      = regexp.MustCompile(`^    descriptor: (\S+)$`)
	reLine      = regexp.MustCompile(`^        line (\d+): (\d+)$`)
	reBSM       = regexp.MustCompile(`^  \d+: #\d+ (REF_\w+) ([^:]+):(\S+)$`)
	reMethod    = regexp.MustCompile(`^  [^ ].*\);$|^  [^ ].*\) throws .*;$|^  static \{\};$`)
	reMember    = regexp.MustCompile(`^  [^ ]`)
	reThrows    = regexp.MustCompile(`^      throws (.+)$`)
	reSignature = regexp.MustCompile(`^    Signature: #\d+ +// (.+)$`)
)

// parseJavap reads javap -v -p output. A method starts at a two-space-indented
// declaration ending in ");" (or "static {};"), then "descriptor:" and "flags:".
func parseJavap(t *testing.T, out []byte) []javapClass {
	var classes []javapClass
	var cur *javapClass
	var name, desc string
	var lines []string
	inBSM := false
	flushLines := func() {
		if len(lines) > 0 {
			cur.lines = append(cur.lines, name+" "+desc+": "+strings.Join(lines, ", "))
		}
		lines = nil
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	pendingMethod := false
	method := "" // "name desc" of the method whose attributes are being read, if any
	for sc.Scan() {
		l := sc.Text()
		if m := reClassfile.FindStringSubmatch(l); m != nil {
			if cur != nil {
				flushLines()
			}
			classes = append(classes, javapClass{name: m[1]})
			cur = &classes[len(classes)-1]
			inBSM, pendingMethod, method = false, false, ""
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case l == "BootstrapMethods:":
			flushLines()
			inBSM = true
		case inBSM:
			if m := reBSM.FindStringSubmatch(l); m != nil {
				cur.bootstraps = append(cur.bootstraps, m[1]+" "+m[2]+":"+m[3])
			} else if !strings.HasPrefix(l, "    ") {
				inBSM = false
			}
		case reMethod.MatchString(l):
			flushLines()
			pendingMethod, method = true, ""
			name = javapMethodName(l, cur.name)
		case reMember.MatchString(l) || l == "}":
			method = "" // a field, or the end of the members
		case method != "" && reThrows.MatchString(l):
			cur.attrs = append(cur.attrs, method+" throws "+reThrows.FindStringSubmatch(l)[1])
		case method != "" && reSignature.MatchString(l):
			cur.attrs = append(cur.attrs, method+" signature "+reSignature.FindStringSubmatch(l)[1])
		case pendingMethod && reDesc.MatchString(l):
			desc = reDesc.FindStringSubmatch(l)[1]
		case pendingMethod && reFlags.MatchString(l):
			flags := reFlags.FindStringSubmatch(l)[1]
			v, _ := strconv.ParseUint(flags[2:], 16, 16)
			cur.methods = append(cur.methods, fmt.Sprintf("%s %s %#04x", name, desc, v))
			pendingMethod, method = false, name+" "+desc
		default:
			if m := reLine.FindStringSubmatch(l); m != nil {
				lines = append(lines, m[1]+" "+m[2])
			}
		}
	}
	if cur != nil {
		flushLines()
	}
	return classes
}

// javapMethodName extracts the method name from javap's Java-like declaration.
func javapMethodName(decl, class string) string {
	decl = strings.TrimSpace(decl)
	if decl == "static {};" {
		return "<clinit>"
	}
	paren := strings.IndexByte(decl, '(')
	head := decl[:paren]
	sp := strings.LastIndexByte(head, ' ')
	n := head[sp+1:]
	simple := class[strings.LastIndexByte(class, '/')+1:]
	if n == strings.ReplaceAll(class, "/", ".") || n == simple {
		return "<init>"
	}
	return n
}
