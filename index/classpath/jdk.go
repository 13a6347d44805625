package classpath

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// FindJDK returns the home of the JDK to analyse against: explicit if not
// empty, else $JAVA_HOME, else the JDK of the java command on PATH (with
// symbolic links resolved, as Debian's /usr/bin/java goes through
// /etc/alternatives); on macOS, whose /usr/bin/java is a stub, else the newest
// JDK installed in /Library/Java/JavaVirtualMachines or
// ~/Library/Java/JavaVirtualMachines. A home may be given as a macOS bundle
// (temurin-17.jdk for temurin-17.jdk/Contents/Home). An explicit home that is
// not a JDK is an error; a JAVA_HOME that is not one is skipped in favour of
// PATH.
func FindJDK(explicit string) (string, error) {
	home, _, err := findJDK(explicit)
	return home, err
}

// findJDK is FindJDK that also returns why JAVA_HOME was skipped, so that
// Open can tell the user about a stale setting.
func findJDK(explicit string) (home string, skipped []error, err error) {
	return hostJDKLookup().find(explicit)
}

// jdkLookup is what finding the JDK depends on besides the file system, so that
// each platform's rules are tested on any machine.
type jdkLookup struct {
	goos   string
	getenv func(string) string
	// vmDirs are where macOS keeps installed JDKs, as bundles
	// <name>.jdk/Contents/Home.
	vmDirs []string
}

func hostJDKLookup() jdkLookup {
	l := jdkLookup{goos: runtime.GOOS, getenv: os.Getenv}
	if l.goos == "darwin" {
		l.vmDirs = []string{"/Library/Java/JavaVirtualMachines"}
		if home, err := os.UserHomeDir(); err == nil {
			l.vmDirs = append(l.vmDirs, filepath.Join(home, "Library", "Java", "JavaVirtualMachines"))
		}
	}
	return l
}

func (l jdkLookup) find(explicit string) (home string, skipped []error, err error) {
	if explicit != "" {
		home, err := jdkHomeAt(explicit)
		if err != nil {
			return "", nil, fmt.Errorf("classpath: configured JDK %s: %w", explicit, err)
		}
		return home, nil, nil
	}
	if jh := l.getenv("JAVA_HOME"); jh != "" {
		if home, err := jdkHomeAt(jh); err == nil {
			return home, nil, nil
		} else {
			skipped = append(skipped, fmt.Errorf("JAVA_HOME=%s ignored: %w", jh, err))
		}
	}
	java, err := l.lookPath()
	if err == nil {
		home, err = l.homeOf(java)
	}
	if err == nil {
		return home, skipped, nil
	}
	if l.goos == "darwin" {
		// /usr/bin/java runs the JDK that /usr/libexec/java_home picks: by default
		// the newest of those installed.
		if home := newestJDK(l.vmDirs); home != "" {
			return home, skipped, nil
		}
		err = fmt.Errorf("%w; no JDK in %s", err, strings.Join(l.vmDirs, " or "))
	}
	return "", skipped, errors.Join(append(skipped, err)...)
}

// jdkHomeAt returns the JDK home dir names: dir itself, or the home inside a
// macOS bundle (dir/Contents/Home).
func jdkHomeAt(dir string) (string, error) {
	err := checkJDK(dir)
	if err == nil {
		return filepath.Clean(dir), nil
	}
	if inner := filepath.Join(dir, "Contents", "Home"); checkJDK(inner) == nil {
		return inner, nil
	}
	return "", err
}

// lookPath finds the java command on PATH as the platform's shell does: on
// Windows java.exe in ;-separated (and maybe quoted) directories.
func (l jdkLookup) lookPath() (string, error) {
	name, sep := "java", ":"
	if l.goos == "windows" {
		name, sep = "java.exe", ";"
	}
	for _, dir := range strings.Split(l.getenv("PATH"), sep) {
		if l.goos == "windows" {
			dir = strings.Trim(dir, `"`)
		}
		if dir == "" || !filepath.IsAbs(dir) {
			continue // the working directory is not a place to run programs from
		}
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err == nil && st.Mode().IsRegular() && (l.goos == "windows" || st.Mode()&0o111 != 0) {
			return p, nil
		}
	}
	return "", fmt.Errorf("classpath: no JDK found (configure the JDK home, set JAVA_HOME or put java on PATH): no %s on PATH", name)
}

// homeOf returns the JDK whose bin/ holds the java command at java.
func (l jdkLookup) homeOf(java string) (string, error) {
	real, err := filepath.EvalSymlinks(java)
	if err != nil {
		return "", fmt.Errorf("classpath: resolving %s: %w", java, err)
	}
	home := filepath.Dir(filepath.Dir(real)) // <home>/bin/java
	if err := checkJDK(home); err != nil {
		return "", fmt.Errorf("classpath: %s (from %s on PATH): %w", home, java, err)
	}
	return home, nil
}

// newestJDK returns the home of the newest JDK bundle in dirs (by the release
// file's version, then by name), or "".
func newestJDK(dirs []string) string {
	best, bestRelease := "", -1
	for _, d := range dirs {
		homes, _ := filepath.Glob(filepath.Join(d, "*", "Contents", "Home"))
		slices.Sort(homes)
		for _, h := range homes {
			if checkJDK(h) != nil {
				continue
			}
			if r := jdkRelease(h); r >= bestRelease {
				best, bestRelease = h, r
			}
		}
	}
	return best
}

// checkJDK tells whether home holds a platform this package can read.
func checkJDK(home string) error {
	st, err := os.Stat(home)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("not a directory")
	}
	if _, err := jdkContainers(home); err != nil {
		return err
	}
	return nil
}

// isJDKHome tells a JDK home from a class directory.
func isJDKHome(dir string) bool {
	for _, p := range []string{"lib/modules", "lib/rt.jar", "jre/lib/rt.jar"} {
		if st, err := os.Stat(filepath.Join(dir, p)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// jdk8BootJars is the boot class path of JDK 8 (sun.boot.class.path), in
// its order; only rt.jar is required.
var jdk8BootJars = []string{"resources.jar", "rt.jar", "sunrsasign.jar", "jsse.jar", "jce.jar", "charsets.jar", "jfr.jar"}

// jdkContainers lists the containers of the platform classes of a JDK:
// the runtime image, else JDK 8's boot and extension jars, else jmods.
func jdkContainers(home string) ([]string, error) {
	if p := filepath.Join(home, "lib", "modules"); isFile(p) {
		return []string{p}, nil
	}
	for _, lib := range []string{filepath.Join(home, "jre", "lib"), filepath.Join(home, "lib")} {
		if !isFile(filepath.Join(lib, "rt.jar")) {
			continue
		}
		var paths []string
		for _, j := range jdk8BootJars {
			if p := filepath.Join(lib, j); isFile(p) {
				paths = append(paths, p)
			}
		}
		ext, _ := filepath.Glob(filepath.Join(lib, "ext", "*.jar"))
		slices.Sort(ext)
		return append(paths, ext...), nil
	}
	jmods, _ := filepath.Glob(filepath.Join(home, "jmods", "*.jmod"))
	if len(jmods) > 0 {
		slices.Sort(jmods)
		return jmods, nil
	}
	return nil, fmt.Errorf("not a JDK: no lib/modules, lib/rt.jar, jre/lib/rt.jar or jmods/*.jmod")
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// jdkRelease is the feature version of the JDK at home, from the
// JAVA_VERSION of its release file ("17.0.15", "1.8.0_392", "21-ea"), or
// 0 when unknown.
func jdkRelease(home string) int {
	f, err := os.Open(filepath.Join(home, "release"))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), "JAVA_VERSION=")
		if ok {
			return featureVersion(strings.Trim(v, `"`))
		}
	}
	return 0
}

func featureVersion(v string) int {
	v = strings.TrimPrefix(v, "1.") // 1.8.0_392 is release 8
	end := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if end >= 0 {
		v = v[:end]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0
	}
	return n
}
