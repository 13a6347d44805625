// Package jvmrecord records the Java methods that really execute when a program
// runs: a dynamic oracle against which the recall of a static call graph is
// measured.
//
// The recorder is a JVMTI agent written in C (agent/recorder.c, embedded) that
// Agent compiles with gcc against the JDK's jvmti.h. It records every method
// that is entered at least once, natives included, and writes one line per
// distinct method when the VM dies:
//
//	pkg/Cls.name(desc)<TAB>caller
//
// where caller is the frame that called the method the first time it ran,
// "pkg/Cls.name(desc)@bci", or "-" when no Java frame did (the JVM or native
// code called it: thread starts, class initialisation by the VM, JNI upcalls).
//
// Record runs `java -agentpath:recorder.so=out=FILE args...` and returns the
// methods, less those of classes whose names change from run to run (see
// Unstable), which no static analysis of class files can name.
//
//	ex, err := jvmrecord.Record(ctx, jvmrecord.Run{
//		JavaHome: "/usr/lib/jvm/java-17-openjdk-amd64",
//		Args:     []string{"-cp", "/usr/share/java/javacc.jar", "javacc", "g.jj"},
//	})
//
// The agent has two modes (Run.Mode). Entry, the default, enables JVMTI
// MethodEntry: HotSpot then runs every thread in interpreter-only mode, so no
// call is hidden by compiled or inlined code, and natives are recorded too
// (MethodEntry is posted for them); but a program runs 10-30 times slower
// (ProGuard on sablecc.jar: 80 s instead of 3 s). Breakpoints sets a breakpoint
// at the first instruction of every method when its class is prepared and
// clears it at the first hit, so the program runs compiled at nearly full
// speed (the same ProGuard run: 4 s). It records the same Java methods; of the
// natives it records those HotSpot links lazily at their first call, not those
// bound by RegisterNatives (most natives of Object, Class, Thread, Unsafe,
// MethodHandleNatives), whose binding says nothing about calls.
//
// Neither mode sees methods that run only before the JVM's live phase
// (System.initPhase1 and the module system's boot): HotSpot posts no events
// for them.
package jvmrecord

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

//go:embed agent/recorder.c
var agentSource []byte

// Method is an executed method in internal form, e.g. {"java/lang/String",
// "hashCode", "()I"}.
type Method struct {
	Class, Name, Desc string
}

func (m Method) String() string { return m.Class + "." + m.Name + m.Desc }

// ParseMethod parses "pkg/Cls.name(desc)". The class is everything before the
// last '.' that precedes '(': hidden class names contain a '.'
// ("Cls$$Lambda$14.0x0000000800c03000"), method names never do.
func ParseMethod(s string) (Method, error) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return Method{}, fmt.Errorf("%q: no descriptor", s)
	}
	dot := strings.LastIndexByte(s[:open], '.')
	if dot <= 0 || dot == open-1 {
		return Method{}, fmt.Errorf("%q: want pkg/Cls.name(desc)", s)
	}
	return Method{Class: s[:dot], Name: s[dot+1 : open], Desc: s[open:]}, nil
}

// Executed is the result of one recording.
type Executed struct {
	// Methods are the executed methods of classes with stable names, sorted.
	Methods []Method
	// Unstable are the executed methods left out, by the name of the Unstable
	// rule that left them out.
	Unstable map[string][]Method
	// Callers holds the first caller of each method (of Methods and of
	// Unstable) as "pkg/Cls.name(desc)@bci"; a method without a Java caller
	// is absent.
	Callers map[Method]string
	// Output is what the program wrote to stdout and stderr (when Run.Output
	// was nil).
	Output []byte
}

// A rule recognises a class whose name is made up while the program runs, so
// that it differs from run to run (a counter or an address in it) and is in no
// class file the analysis reads.
type rule struct {
	Name string
	Why  string
	re   *regexp.Regexp
}

// Unstable lists the rules by which Parse leaves classes out, each with why.
// Every rule was seen in recordings of the workloads under testdata/recall,
// except the JDK 8 forms, which are kept so that an old JDK gives the same set.
var Unstable = []rule{
	{"hidden", "hidden classes (Lookup.defineHiddenClass: lambda proxies, lambda forms, string concatenation strategies) are named Name.0x<address> (JVMTI) or Name/0x<address> (Class.getName); the address changes per run and no class file has the class",
		regexp.MustCompile(`[./]0x[0-9a-fA-F]+$`)},
	{"lambda", "lambda proxy classes spun by InnerClassLambdaMetafactory are numbered in creation order (Cls$$Lambda$14); JDK 8 and -Djdk.internal.lambda.disableEagerInitialization make them without the hidden suffix",
		regexp.MustCompile(`\$\$Lambda`)},
	{"proxy", "java.lang.reflect.Proxy classes are numbered in creation order (jdk/proxy1/$Proxy12, com/sun/proxy/$Proxy12)",
		regexp.MustCompile(`(^|/)\$Proxy[0-9]*$`)},
	{"reflection-accessor", "reflection inflation spins MethodAccessorImpl subclasses after 15 reflective calls, numbered in creation order (jdk/internal/reflect/GeneratedMethodAccessor3, sun/reflect/ in JDK 8)",
		regexp.MustCompile(`^(jdk/internal|sun)/reflect/Generated(Serialization)?(Method|Constructor)Accessor[0-9]+$`)},
	{"bytecode-gen", "classes a library spins with a bytecode generator (CGLIB, as Guice's AOP bundles it: inj/Service$$FastClassByGuice$$74456104, $MethodWrapperKey$$$KeyFactoryByCGLIB$$e23ecb5d) are named after a hash of what they are made for and defined at run time; no class file has them",
		regexp.MustCompile(`\$\$[A-Za-z]+By(CGLIB|Guice|SpringCGLIB)\$\$[0-9a-f]+(_[0-9]+)?$`)},
	{"lambda-form", "JDK 8 spins lambda form classes java/lang/invoke/LambdaForm$MH/<hash> (JDK 9+ makes them hidden); the pregenerated holders (LambdaForm$Holder, DirectMethodHandle$Holder) are real classes and kept",
		regexp.MustCompile(`^java/lang/invoke/LambdaForm\$(MH|DMH|BMH)([./]|$)`)},
}

// unstableRule returns the name of the first rule that matches class, or "".
func unstableRule(class string) string {
	for _, r := range Unstable {
		if r.re.MatchString(class) {
			return r.Name
		}
	}
	return ""
}

// Parse reads a file written by the agent. A file without the trailer line the
// agent writes last was cut short (the VM was killed) and is an error, as is a
// trailer that reports methods whose names could not be found or a full set.
func Parse(r io.Reader) (*Executed, error) {
	ex := &Executed{Unstable: map[string][]Method{}, Callers: map[Method]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	seen := map[Method]bool{}
	trailer := ""
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if s == "" {
			continue
		}
		if strings.HasPrefix(s, "#") {
			trailer = s
			continue
		}
		caller := ""
		if tab := strings.IndexByte(s, '\t'); tab >= 0 {
			s, caller = s[:tab], s[tab+1:]
		}
		m, err := ParseMethod(s)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if seen[m] { // the same name from two class loaders
			continue
		}
		seen[m] = true
		if caller != "" && caller != "-" {
			ex.Callers[m] = caller
		}
		if r := unstableRule(m.Class); r != "" {
			ex.Unstable[r] = append(ex.Unstable[r], m)
			continue
		}
		ex.Methods = append(ex.Methods, m)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if trailer == "" {
		return nil, errors.New("no trailer line: the recording was cut short (the VM did not reach VMDeath)")
	}
	var n, unresolved, failures, full int
	if _, err := fmt.Sscanf(trailer, "# methods %d unresolved %d failures %d full %d", &n, &unresolved, &failures, &full); err != nil {
		return nil, fmt.Errorf("bad trailer %q: %v", trailer, err)
	}
	if unresolved > 0 || full != 0 {
		return nil, fmt.Errorf("incomplete recording: %s", trailer)
	}
	sortMethods(ex.Methods)
	for _, ms := range ex.Unstable {
		sortMethods(ms)
	}
	return ex, nil
}

func sortMethods(ms []Method) {
	sort.Slice(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if a.Class != b.Class {
			return a.Class < b.Class
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Desc < b.Desc
	})
}

// ErrNoToolchain is wrapped by Agent's error when gcc or the JDK's JVMTI headers
// are missing, so that tests can skip instead of failing.
var ErrNoToolchain = errors.New("cannot build the JVMTI agent")

var buildMu sync.Mutex

// Agent returns the path of the recorder agent built for the JDK at javaHome,
// building it with gcc on first use. The shared object is cached under
// os.UserCacheDir()/jcg-lsp/jvmrecord/<hash> (or os.TempDir()), keyed by the
// agent's source and the JDK's jvmti.h, and written by rename, so concurrent
// processes never load a partial file.
func Agent(ctx context.Context, javaHome string) (string, error) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return "", fmt.Errorf("%w: gcc not found on PATH: %v", ErrNoToolchain, err)
	}
	inc := filepath.Join(javaHome, "include")
	hdr, err := os.ReadFile(filepath.Join(inc, "jvmti.h"))
	if err != nil {
		return "", fmt.Errorf("%w: no JVMTI header in %s (a JRE, not a JDK?): %v", ErrNoToolchain, javaHome, err)
	}
	h := sha256.New()
	h.Write(agentSource)
	h.Write(hdr)
	key := hex.EncodeToString(h.Sum(nil))[:24]
	root, err := os.UserCacheDir()
	if err != nil {
		root = os.TempDir()
	}
	dir := filepath.Join(root, "jcg-lsp", "jvmrecord")
	so := filepath.Join(dir, "recorder-"+key+".so")
	buildMu.Lock()
	defer buildMu.Unlock()
	if _, err := os.Stat(so); err == nil {
		return so, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("agent cache: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", fmt.Errorf("agent cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "recorder.c")
	if err := os.WriteFile(src, agentSource, 0o644); err != nil {
		return "", err
	}
	out := filepath.Join(tmp, "recorder.so")
	cmd := exec.CommandContext(ctx, gcc, "-shared", "-fPIC", "-O2", "-Wall",
		"-I"+inc, "-I"+filepath.Join(inc, "linux"), "-o", out, src)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, msg)
	}
	if err := os.Rename(out, so); err != nil {
		return "", fmt.Errorf("agent cache: %w", err)
	}
	return so, nil
}

// Mode is how the agent notices the first execution of a method.
type Mode int

const (
	// Entry records MethodEntry events: exact, natives included, slow.
	Entry Mode = iota
	// Breakpoints records the first hit of a breakpoint at each method's
	// start: fast; natives only when linked lazily at their first call.
	Breakpoints
)

func (m Mode) String() string {
	if m == Breakpoints {
		return "breakpoints"
	}
	return "entry"
}

// Run describes one run of a Java program to record.
type Run struct {
	// Mode picks how methods are recorded; the zero value is Entry.
	Mode Mode
	// JavaHome is the JDK: java is JavaHome/bin/java, and the agent is built
	// against JavaHome/include.
	JavaHome string
	// Args follow the agent option on java's command line: options, class
	// path, main class and the program's arguments.
	Args []string
	// Wrapper, when set, runs java, e.g. {"xvfb-run", "-a"}.
	Wrapper []string
	// Dir is the working directory; "" for the current one.
	Dir string
	// Env is added to the environment of the current process.
	Env []string
	// Timeout bounds the run; zero means 5 minutes.
	Timeout time.Duration
	// AnyExit accepts a non-zero exit status (programs that report problems
	// of their input by their status); the recording is used all the same.
	AnyExit bool
	// Output receives java's stdout and stderr; nil keeps them in
	// Executed.Output and in errors.
	Output io.Writer
}

// Record runs the program with the recorder agent and returns the methods it
// executed.
func Record(ctx context.Context, r Run) (*Executed, error) {
	if r.JavaHome == "" {
		return nil, errors.New("jvmrecord: Run.JavaHome is empty")
	}
	agent, err := Agent(ctx, r.JavaHome)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "jvmrecord-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	outFile := filepath.Join(tmp, "executed.txt")
	timeout := r.Timeout
	if timeout == 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := append([]string{filepath.Join(r.JavaHome, "bin", "java"), "-agentpath:" + agent + "=mode=" + r.Mode.String() + ",out=" + outFile}, r.Args...)
	args = append(append([]string(nil), r.Wrapper...), args...)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(), r.Env...)
	var buf bytes.Buffer
	if r.Output != nil {
		cmd.Stdout, cmd.Stderr = r.Output, r.Output
	} else {
		cmd.Stdout, cmd.Stderr = &buf, &buf
	}
	// xvfb-run starts children of its own: on timeout the whole group goes.
	cmd.SysProcAttr = processGroup()
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 10 * time.Second
	t0 := time.Now()
	runErr := cmd.Run()
	quoted := quote(buf.Bytes())
	if ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("%s: timed out after %v%s", strings.Join(cmd.Args, " "), timeout, quoted)
	}
	if runErr != nil {
		var ee *exec.ExitError
		if !r.AnyExit || !errors.As(runErr, &ee) {
			return nil, fmt.Errorf("%s: %v (after %v)%s", strings.Join(cmd.Args, " "), runErr, time.Since(t0).Round(time.Millisecond), quoted)
		}
	}
	f, err := os.Open(outFile)
	if err != nil {
		return nil, fmt.Errorf("%s: the agent wrote no recording: %v%s", strings.Join(cmd.Args, " "), err, quoted)
	}
	defer f.Close()
	ex, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: recording of %s: %w%s", outFile, strings.Join(cmd.Args, " "), err, quoted)
	}
	ex.Output = buf.Bytes()
	return ex, nil
}

// quote returns the end of a program's output for an error message.
func quote(out []byte) string {
	const max = 4000
	if len(out) == 0 {
		return ""
	}
	if len(out) > max {
		out = append([]byte("..."), out[len(out)-max:]...)
	}
	return "\noutput:\n" + string(out)
}
