package javatest

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The programs under testdata/java must compile with javac --release 17 and
// run; hierarchy's main also checks its SELECT expectations on the JVM.
func TestTestdataPrograms(t *testing.T) {
	java := filepath.Join(JDKHome(t), "bin", "java")
	cases := []struct {
		program, main string
		lastLine      string // expected last line of output, if not ""
	}{
		{"features", "feat.Features", "wide -10303"},
		{"hierarchy", "hier.Main", "OK: 56 checks"},
		{"flow", "flow.Main", "OK"},
		{"main-example", "example.Main", "2. execute (audit)"},
		{"escapes", "esc.Main", "OK"},
	}
	for _, c := range cases {
		t.Run(c.program, func(t *testing.T) {
			classes := Compile(t, Program(t, c.program), Release(17))
			out, err := exec.Command(java, "-cp", classes, c.main).CombinedOutput()
			if err != nil {
				t.Fatalf("java %s: %v\n%s", c.main, err, out)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if last := lines[len(lines)-1]; last != c.lastLine {
				t.Errorf("last line of output = %q, want %q\n%s", last, c.lastLine, out)
			}
		})
	}
}

// jdk25Javac is the javac of JDK25Home, "" without one.
func jdk25Javac() string {
	if home := JDK25Home(); home != "" {
		return filepath.Join(home, "bin", "javac")
	}
	return ""
}

func TestJava25Programs(t *testing.T) {
	javac := jdk25Javac()
	if javac == "" {
		t.Skip("no JDK 25 (set JCG_JDK25_HOME): skipping the javac 25 programs")
	}
	java := filepath.Join(filepath.Dir(javac), "java")
	for _, c := range []struct{ program, main, lastLine string }{
		{"java25", "j25.Main", "OK"},
		{"java25", "CompactMain", "hello from a compact source file"},
		{"features", "feat.Features", "wide -10303"},
	} {
		classes := Compile(t, Program(t, c.program), Release(25), WithJavac(javac))
		out, err := exec.Command(java, "-cp", classes, c.main).CombinedOutput()
		if err != nil {
			t.Fatalf("java %s: %v\n%s", c.main, err, out)
		}
		if !strings.HasSuffix(strings.TrimSpace(string(out)), c.lastLine) {
			t.Errorf("%s printed %q, want it to end with %q", c.main, out, c.lastLine)
		}
	}
}

// Directive grammars of testdata/java/README.md, as regular expressions.
var (
	directiveRE = regexp.MustCompile(`//\s*(RESOLVE|SELECT|NEST|DEFS|POSTDOM|NOPOSTDOM)\b(.*)$`)
	classRE     = `[\w/$]+`
	refRE       = classRE + `\.[\w<>$]+\([^\s)]*\)\S+`
	resultRE    = `(?:` + classRE + `\.[\w<>$]+(?:\([^\s)]*\)\S+)?|![A-Z]\w+)`
	resolveRE   = regexp.MustCompile(`^ (invokevirtual|invokeinterface|invokespecial|invokestatic)( caller=` + classRE + `)? (` + refRE + `) -> (` + resultRE + `)$`)
	selectRE    = regexp.MustCompile(`^ (invokevirtual|invokeinterface|invokespecial)( caller=` + classRE + `)?( receiver=` + classRE + `)? (` + refRE + `) -> (` + resultRE + `)$`)
	nestRE      = regexp.MustCompile(`^ ` + classRE + `:( ` + classRE + `)+$`)
	selectorRE  = `(?:invoke\w+ \S+|(?:get|put)(?:field|static) \S+|(?:new|anewarray|checkcast|instanceof) \S+|[a-z0-9_]+)`
	defRE       = `(?:ldc (?:"[^"|;]*"|-?[\d.]+[LDF]?|null|\S+\.class)|param \d+|this|catch \S+|` + selectorRE + `)`
	operandRE   = `(?:recv|arg\d+|value|array|index|op\d+): ` + defRE + `(?: \| ` + defRE + `)*`
	defsRE      = regexp.MustCompile(`^ ` + selectorRE + ` ` + operandRE + `(?:; ` + operandRE + `)*$`)
	postdomRE   = regexp.MustCompile(`^ ` + selectorRE + ` -> ` + selectorRE + `$`)
)

// TestDirectiveSyntax checks that every directive in the testdata programs
// follows the grammar documented in testdata/java/README.md.
func TestDirectiveSyntax(t *testing.T) {
	counts := map[string]int{}
	for _, program := range []string{"hierarchy", "flow"} {
		src := Program(t, program)
		Sources(t, src, func(path string, text []byte) {
			sc := bufio.NewScanner(bytes.NewReader(text))
			for line := 1; sc.Scan(); line++ {
				m := directiveRE.FindStringSubmatch(sc.Text())
				if m == nil {
					continue
				}
				kind, body := m[1], m[2]
				counts[kind]++
				var re *regexp.Regexp
				switch kind {
				case "RESOLVE":
					re = resolveRE
				case "SELECT":
					re = selectRE
				case "NEST":
					re = nestRE
				case "DEFS":
					re = defsRE
				default:
					re = postdomRE
				}
				if !re.MatchString(body) {
					t.Errorf("%s:%d: malformed %s directive: %q", path, line, kind, body)
				}
				if kind == "SELECT" && strings.HasPrefix(body, " invokespecial") != strings.Contains(body, " caller=") {
					t.Errorf("%s:%d: SELECT invokespecial needs caller= (and others receiver=): %q", path, line, body)
				}
				if kind == "SELECT" && !strings.HasPrefix(body, " invokespecial") && !strings.Contains(body, " receiver=") {
					t.Errorf("%s:%d: SELECT needs receiver=: %q", path, line, body)
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		})
	}
	for _, kind := range []string{"RESOLVE", "SELECT", "NEST", "DEFS", "POSTDOM", "NOPOSTDOM"} {
		if counts[kind] == 0 {
			t.Errorf("no %s directives found", kind)
		}
	}
	t.Logf("directives: %v", counts)
}
