// Package javatest compiles the Java programs under testdata/java for tests.
//
// Compile runs javac once per distinct (sources, javac, options) triple and keeps
// the class files in a cache directory shared by all test processes of the user,
// so a second `go test` run (or a second package compiling the same program)
// does not pay for javac again.
//
//	classes := javatest.Compile(t, javatest.Program(t, "features"), javatest.Release(17))
//
// A JDK is required: when no javac can be found the test fails (it is never
// skipped), because CI installs a JDK.
package javatest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// cacheFormat is mixed into every cache key; bump it when the layout of a cache
// entry or the way javac is invoked changes.
const cacheFormat = "javatest-v1"

// Option configures Compile.
type Option func(*config)

type config struct {
	release   int      // 0: javac's default
	javac     string   // "": Javac(t)
	classPath []string // more class-path entries to compile against
}

// Release compiles with `--release n`.
func Release(n int) Option { return func(c *config) { c.release = n } }

// ClassPath compiles against these class directories and jars too (a program that
// uses libraries). Their paths, not their contents, are part of the cache key: give
// paths whose content does not change (Debian's jars, other Compile results).
func ClassPath(entries ...string) Option {
	return func(c *config) { c.classPath = append(c.classPath, entries...) }
}

// WithJavac compiles with the javac at path instead of the one Javac finds,
// e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/javac.
func WithJavac(path string) Option { return func(c *config) { c.javac = path } }

// compiles counts javac invocations made by Compile in this process (for tests).
var compiles atomic.Int64

// keyLocks serialises compilations of the same cache key within one process;
// across processes the atomic rename in Compile takes care of races.
var keyLocks sync.Map // key -> *sync.Mutex

// Compile compiles every .java file under srcDir (recursively) with javac and
// returns the directory holding the class files. It always passes -g (line
// numbers, local variables, source file) and -parameters.
//
// The result is cached under os.UserCacheDir()/jcg-lsp/javac/<hash> (or
// os.TempDir() when there is no user cache directory), where the hash covers
// the relative paths and contents of the sources, javac's path and version and
// the options. An entry is built in a temporary directory and renamed into place,
// so concurrent test processes never see a partial entry. The returned directory
// is shared: callers must not modify it.
//
// On failure Compile calls t.Fatalf with javac's output.
func Compile(t testing.TB, srcDir string, opts ...Option) string {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	javac := cfg.javac
	if javac == "" {
		javac = Javac(t)
	}
	absJavac, err := filepath.Abs(javac)
	if err != nil {
		t.Fatalf("javatest: %v", err)
	}
	if resolved, err := filepath.EvalSymlinks(absJavac); err == nil {
		absJavac = resolved
	}
	version, err := javacVersion(absJavac)
	if err != nil {
		t.Fatalf("javatest: %v", err)
	}

	if srcDir, err = filepath.Abs(srcDir); err != nil { // javac runs in another directory
		t.Fatalf("javatest: %v", err)
	}
	sources, err := findSources(srcDir)
	if err != nil {
		t.Fatalf("javatest: reading sources: %v", err)
	}
	if len(sources) == 0 {
		t.Fatalf("javatest: no .java files under %s", srcDir)
	}

	args := []string{"-g", "-parameters", "-encoding", "UTF-8", "-proc:none", "-Xlint:none"}
	if cfg.release != 0 {
		args = append(args, "--release", strconv.Itoa(cfg.release))
	}
	keyArgs := args
	if len(cfg.classPath) > 0 {
		keyArgs = append(slices.Clip(args), "-classpath+", strings.Join(cfg.classPath, string(filepath.ListSeparator)))
	}
	key, err := cacheKey(absJavac, version, keyArgs, srcDir, sources)
	if err != nil {
		t.Fatalf("javatest: hashing sources: %v", err)
	}

	mu, _ := keyLocks.LoadOrStore(key, new(sync.Mutex))
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()

	root := cacheRoot()
	entry := filepath.Join(root, key)
	classes := filepath.Join(entry, "classes")
	if complete(entry) {
		return classes
	}

	tmp, err := os.MkdirTemp(root, ".tmp-"+key+"-")
	if err != nil {
		t.Fatalf("javatest: %v", err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	out, err := runJavac(absJavac, args, cfg.classPath, srcDir, sources, tmp)
	if err != nil {
		t.Fatalf("javatest: javac failed for %s: %v\n%s", srcDir, err, out)
	}
	info := fmt.Sprintf("javac: %s\nversion: %s\nargs: %s\nsrc: %s\n\n%s", absJavac, version, strings.Join(args, " "), srcDir, out)
	if err := os.WriteFile(filepath.Join(tmp, "javac.txt"), []byte(info), 0o644); err != nil {
		t.Fatalf("javatest: %v", err)
	}
	if err := publish(tmp, entry); err != nil {
		t.Fatalf("javatest: %v", err)
	}
	return classes
}

// complete reports whether a cache entry was fully written. javac.txt is written
// last, before the entry is renamed into place.
func complete(entry string) bool {
	_, err := os.Stat(filepath.Join(entry, "javac.txt"))
	return err == nil
}

// publish renames the finished temporary directory tmp to entry. If another
// process got there first its (identical) entry is kept. An incomplete entry
// left by something else is moved aside and replaced.
func publish(tmp, entry string) error {
	for attempt := 0; ; attempt++ {
		err := os.Rename(tmp, entry)
		if err == nil || complete(entry) {
			return nil
		}
		if attempt == 1 {
			return fmt.Errorf("installing cache entry %s: %w", entry, err)
		}
		trash := fmt.Sprintf("%s.trash-%d-%d", entry, os.Getpid(), time.Now().UnixNano())
		if err := os.Rename(entry, trash); err == nil {
			os.RemoveAll(trash)
		}
	}
}

// runJavac compiles sources into dir/classes and returns javac's output.
func runJavac(javac string, args, classPath []string, srcDir string, sources []string, dir string) ([]byte, error) {
	classes := filepath.Join(dir, "classes")
	if err := os.Mkdir(classes, 0o755); err != nil {
		return nil, err
	}
	// An @argfile keeps the command line short however many sources there are.
	var argfile strings.Builder
	cp := strings.Join(append([]string{classes}, classPath...), string(filepath.ListSeparator))
	for _, a := range append(slices.Clip(args), "-d", classes, "-classpath", cp, "-sourcepath", "") {
		argfile.WriteString(quoteArg(a))
		argfile.WriteByte('\n')
	}
	for _, s := range sources {
		argfile.WriteString(quoteArg(filepath.Join(srcDir, s)))
		argfile.WriteByte('\n')
	}
	argPath := filepath.Join(dir, "javac.args")
	if err := os.WriteFile(argPath, []byte(argfile.String()), 0o644); err != nil {
		return nil, err
	}
	compiles.Add(1)
	cmd := exec.Command(javac, "@"+argPath)
	cmd.Dir = dir
	cmd.Env = javacEnv()
	return cmd.CombinedOutput()
}

// quoteArg quotes an argument for a javac @argfile.
func quoteArg(s string) string {
	s = filepath.ToSlash(s)
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// javacEnv is the environment for javac: without CLASSPATH (which would leak
// into the compilation) and the JVM option variables (which make javac print
// "Picked up ..." and could change its behaviour).
func javacEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "CLASSPATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVAC_OPTIONS":
			continue
		}
		env = append(env, kv)
	}
	return env
}

var versions sync.Map // resolved javac path -> string

// javacVersion returns the output of `javac -version`, memoised per process.
func javacVersion(javac string) (string, error) {
	if v, ok := versions.Load(javac); ok {
		return v.(string), nil
	}
	cmd := exec.Command(javac, "-version")
	cmd.Env = javacEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s -version: %v\n%s%s", javac, err, stdout.Bytes(), stderr.Bytes())
	}
	v := strings.TrimSpace(stdout.String())
	if v == "" { // JDK 8 printed the version on stderr
		v = strings.TrimSpace(stderr.String())
	}
	versions.Store(javac, v)
	return v, nil
}

// findSources returns the .java files under dir, relative to dir, sorted.
func findSources(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".java") {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			files = append(files, rel)
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

// cacheKey hashes everything that determines javac's output.
func cacheKey(javac, version string, args []string, srcDir string, sources []string) (string, error) {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s\n", len(s), s) }
	field(cacheFormat)
	field(javac)
	field(version)
	field(strings.Join(args, "\x00"))
	for _, s := range sources {
		data, err := os.ReadFile(filepath.Join(srcDir, s))
		if err != nil {
			return "", err
		}
		field(filepath.ToSlash(s))
		field(string(data))
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// cacheRoot returns (creating it) the directory holding the cache entries.
func cacheRoot() string {
	root := ""
	if dir, err := os.UserCacheDir(); err == nil {
		root = filepath.Join(dir, "jcg-lsp", "javac")
		if os.MkdirAll(root, 0o755) != nil {
			root = ""
		}
	}
	if root == "" {
		root = filepath.Join(os.TempDir(), "jcg-lsp", "javac")
		os.MkdirAll(root, 0o755) // an error shows up at the first use of root
	}
	if _, done := cleaned.LoadOrStore(root, true); !done {
		removeStale(root)
	}
	return root
}

var cleaned sync.Map // cache roots already swept by this process

// staleAge is how old a temporary directory must be before removeStale
// considers its compilation abandoned (the process was killed).
const staleAge = time.Hour

// removeStale deletes temporary and moved-aside directories that interrupted
// processes left in root.
func removeStale(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".tmp-") && !strings.Contains(e.Name(), ".trash-") {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleAge {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// Javac returns the path of the javac to use: the one on PATH, else
// $JAVA_HOME/bin/javac. It fails the test if there is none.
func Javac(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("javac"); err == nil {
		return p
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "javac")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	t.Fatalf("javatest: no javac found on PATH or in $JAVA_HOME/bin (JAVA_HOME=%q); "+
		"these tests need a JDK (17 or later): install one, e.g. `apt-get install openjdk-17-jdk-headless`",
		os.Getenv("JAVA_HOME"))
	return ""
}

// JDKHome returns the home directory of the JDK whose javac Javac returns
// (symlinks resolved, the parent of its bin directory).
func JDKHome(t testing.TB) string {
	t.Helper()
	javac := Javac(t)
	resolved, err := filepath.EvalSymlinks(javac)
	if err != nil {
		t.Fatalf("javatest: resolving %s: %v", javac, err)
	}
	abs, err := filepath.Abs(resolved)
	if err != nil {
		t.Fatalf("javatest: %v", err)
	}
	return filepath.Dir(filepath.Dir(abs))
}

// Program returns the source directory of the test program `name` in the
// module's testdata/java, i.e. testdata/java/<name>/src, found by walking up
// from the working directory to go.mod.
func Program(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("javatest: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("javatest: no go.mod above the working directory")
		}
		dir = parent
	}
	src := filepath.Join(dir, "testdata", "java", name, "src")
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		t.Fatalf("javatest: no test program %q (%s)", name, src)
	}
	return src
}

// JDK25Home returns the JDK 25 that tests compile and analyse Java 21-25 programs
// with: $JCG_JDK25_HOME, then the Temurin 25 package's home; "" when neither has a
// javac.
func JDK25Home() string {
	for _, home := range []string{os.Getenv("JCG_JDK25_HOME"), "/usr/lib/jvm/temurin-25-jdk-amd64"} {
		if home == "" {
			continue
		}
		if st, err := os.Stat(filepath.Join(home, "bin", "javac")); err == nil && !st.IsDir() {
			return home
		}
	}
	return ""
}

// jarTime is the modification time of every jar entry, so jars are reproducible.
var jarTime = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// Jar writes a jar (a zip with a META-INF/MANIFEST.MF first) containing every
// file under classDir to jarPath, creating its parent directories.
func Jar(t testing.TB, classDir, jarPath string) {
	t.Helper()
	if err := writeJar(classDir, jarPath); err != nil {
		t.Fatalf("javatest: writing jar %s: %v", jarPath, err)
	}
}

func writeJar(classDir, jarPath string) (err error) {
	if err := os.MkdirAll(filepath.Dir(jarPath), 0o755); err != nil {
		return err
	}
	f, err := os.Create(jarPath)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	zw := zip.NewWriter(f)
	add := func(name string, r io.Reader) error {
		hdr := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: jarTime}
		if strings.HasSuffix(name, "/") {
			hdr.Method = zip.Store
		}
		w, err := zw.CreateHeader(hdr)
		if err != nil || r == nil {
			return err
		}
		_, err = io.Copy(w, r)
		return err
	}
	if err := add("META-INF/", nil); err != nil {
		return err
	}
	manifest := "Manifest-Version: 1.0\r\nCreated-By: jcg-lsp javatest\r\n\r\n"
	if err := add("META-INF/MANIFEST.MF", strings.NewReader(manifest)); err != nil {
		return err
	}
	err = filepath.WalkDir(classDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(classDir, path)
		if err != nil || rel == "." {
			return err
		}
		name := filepath.ToSlash(rel)
		if name == "META-INF" || name == "META-INF/MANIFEST.MF" {
			return nil // already written
		}
		if d.IsDir() {
			return add(name+"/", nil)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		return add(name, src)
	})
	if err != nil {
		return err
	}
	return zw.Close()
}

// CopyTree copies the files below from to the same relative paths below to (a test's
// workspace built from testdata and compiled classes).
func CopyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatalf("copying %s: %v", from, err)
	}
}

// Sources calls fn with the path and text of every .java file under dir, in lexical
// order: what tests that read expectations from test programs walk.
func Sources(t testing.TB, dir string, fn func(path string, text []byte)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".java") {
			return err
		}
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fn(p, text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
