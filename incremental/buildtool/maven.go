package buildtool

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// mavenBuild is a Maven build read from its files: its configuration, the
// effective models of its modules, and the files they were read from.
type mavenBuild struct {
	root    string
	conf    *mavenConf
	b       *builder
	mods    []*model // root first, then modules depth-first in declaration order
	dirs    []string // of mods
	errs    []Problem
	modules map[string]*model // by group:artifact
}

// readMaven reads the Maven build whose root POM is root/pom.xml.
func readMaven(root, mvn, home, javaVersion string) *mavenBuild {
	conf := readMavenConf(root, mvn, home)
	sys := map[string]string{"java.version": javaVersion, "os.name": "Linux", "file.separator": "/", "user.home": home}
	mb := &mavenBuild{root: root, conf: conf, modules: map[string]*model{},
		b: newBuilder(&repos{maven: []string{conf.localRepo}}, conf.userProps, sys, conf.profiles)}
	mb.errs = append(mb.errs, conf.problems...)
	var visit func(file string, depth int)
	visit = func(file string, depth int) {
		if depth > 16 || slices.ContainsFunc(mb.mods, func(m *model) bool { return m.File == file }) {
			return
		}
		m, err := mb.b.load(file, false)
		if err != nil {
			mb.errs = append(mb.errs, Problem{Pos: posOf(file, err), Msg: err.Error()})
			return
		}
		mb.mods = append(mb.mods, m)
		mb.dirs = append(mb.dirs, filepath.Dir(file))
		mb.modules[m.Coord.GA()] = m
		for _, name := range m.Modules {
			p := filepath.Join(filepath.Dir(file), filepath.FromSlash(name))
			if !strings.HasSuffix(p, ".xml") {
				p = filepath.Join(p, "pom.xml")
			}
			if !isFile(p) {
				mb.errs = append(mb.errs, Problem{Pos: Pos{File: file}, Msg: fmt.Sprintf("module %s: %s does not exist", name, p)})
				continue
			}
			visit(filepath.Clean(p), depth+1)
		}
	}
	visit(filepath.Join(root, "pom.xml"), 0)
	return mb
}

var xmlLine = regexp.MustCompile(`^[^:]*:(\d+):`)

// posOf returns the place an error of parsePOM names.
func posOf(file string, err error) Pos {
	p := Pos{File: file}
	if m := xmlLine.FindStringSubmatch(strings.TrimPrefix(err.Error(), file)); m != nil {
		fmt.Sscan(m[1], &p.Line)
		p.Col = 1
	}
	return p
}

// inputs are the files the build's class path depends on.
func (mb *mavenBuild) inputs() []string {
	var out []string
	for f := range mb.b.read {
		out = append(out, f)
	}
	out = append(out, filepath.Join(mb.root, "pom.xml"), mb.conf.mavenConfig)
	for _, s := range []string{mb.conf.userSettings, mb.conf.globalSettings} {
		if s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// noDependencies reports whether no module declares a dependency, inherited or in a
// profile, and every POM could be read.
func (mb *mavenBuild) noDependencies() bool {
	if len(mb.errs) > 0 || len(mb.b.problems) > 0 || len(mb.mods) == 0 {
		return false
	}
	for _, m := range mb.mods {
		if len(m.Deps) > 0 || m.ProfileDeps {
			return false
		}
	}
	return true
}

// resolveFromFiles resolves every module's class path from the POMs.
func (mb *mavenBuild) resolveFromFiles(res *Result, skip map[string]bool) {
	for i, m := range mb.mods {
		if skip[m.Coord.GA()] {
			continue
		}
		res.Modules = append(res.Modules, Module{Coord: m.Coord, Dir: mb.dirs[i], File: m.File, Deps: mb.b.resolveModule(m, mb.modules)})
	}
	res.Problems = append(res.Problems, mb.b.problems...)
}

// dependencyPlugin returns the version of maven-dependency-plugin to run: the one the
// build pins when the local repository has it, else the newest it has ("" for none:
// Maven offline cannot run it).
func (mb *mavenBuild) dependencyPlugin() string {
	r := mb.b.repos
	has := func(v string) bool {
		return r.find(Coord{Group: "org.apache.maven.plugins", Artifact: "maven-dependency-plugin", Version: v}, "jar", "") != ""
	}
	if len(mb.mods) > 0 {
		if v := mb.mods[0].Plugins["maven-dependency-plugin"]; v != "" && has(v) {
			return v
		}
	}
	for _, v := range r.versions("org.apache.maven.plugins", "maven-dependency-plugin") {
		if has(v) {
			return v
		}
	}
	return ""
}

// runMaven runs `mvn dependency:tree` offline over the reactor and returns the
// modules whose tree it wrote. The rest (a module whose resolution failed, and those
// after it) is for resolveFromFiles; notes say what went wrong.
func (mb *mavenBuild) runMaven(ctx context.Context, mvn, plugin string, timeout time.Duration) (mods []Module, notes []string, err error) {
	out, err := os.MkdirTemp("", "jcg-lsp-mvn-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(out)
	args := []string{"-o", "-B", "-q", "-fae", "-Dmaven.repo.local=" + mb.conf.localRepo}
	if isFile(mb.conf.userSettings) {
		// Maven finds ~/.m2 from the JVM's user.home, which is not $HOME: name the
		// settings we read, so that Maven and the cache key agree.
		args = append(args, "-s", mb.conf.userSettings)
	}
	args = append(args, "org.apache.maven.plugins:maven-dependency-plugin:"+plugin+":tree",
		"-DoutputFile="+filepath.Join(out, "${project.groupId}__${project.artifactId}.tree"), "-DoutputType=text")
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, mvn, args...)
	cmd.Dir = mb.root
	// A run of a few seconds is mostly class loading and the JIT: the client compiler
	// alone halves it (4 s to 2 s here). The user's MAVEN_OPTS come after, and win.
	cmd.Env = append(os.Environ(), "MAVEN_OPTS=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC "+os.Getenv("MAVEN_OPTS"))
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.WaitDelay = 2 * time.Second
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, nil, fmt.Errorf("mvn: %w", ctx.Err())
	}
	if runErr != nil {
		notes = append(notes, "mvn failed ("+runErr.Error()+"): "+mavenErrors(buf.Bytes()))
	}
	for i, m := range mb.mods {
		name := filepath.Join(out, m.Coord.Group+"__"+m.Coord.Artifact+".tree")
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		_, deps, err := parseTree(data)
		if err != nil {
			notes = append(notes, fmt.Sprintf("the dependency tree of %s: %v", m.Coord.GA(), err))
			continue
		}
		mod := Module{Coord: m.Coord, Dir: mb.dirs[i], File: m.File}
		for _, d := range deps {
			if mb.modules[d.Coord.GA()] != nil {
				d.Module = true
			} else if d.Scope == "system" {
				d.Path = mb.systemPath(m, d.Coord)
			} else {
				d.Path = mb.b.repos.artifact(d.Coord)
			}
			d.Declared = declaredAt(m, d.Via)
			mod.Deps = append(mod.Deps, d)
		}
		mods = append(mods, mod)
	}
	if len(mods) == 0 && runErr != nil {
		return nil, notes, fmt.Errorf("mvn wrote no dependency tree")
	}
	return mods, notes, nil
}

func (mb *mavenBuild) systemPath(m *model, c Coord) string {
	for _, d := range m.Deps {
		if d.Group == c.Group && d.Artifact == c.Artifact && isFile(d.SystemPath) {
			return d.SystemPath
		}
	}
	return ""
}

// declaredAt is where a module declares (or inherits) its direct dependency c.
func declaredAt(m *model, c Coord) Pos {
	for _, d := range m.Deps {
		if d.Group == c.Group && d.Artifact == c.Artifact {
			return d.Pos
		}
	}
	return Pos{File: m.File}
}

// mavenErrors keeps the first [ERROR] lines of Maven's output that say something.
func mavenErrors(out []byte) string {
	var msgs []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		msg, ok := strings.CutPrefix(l, "[ERROR] ")
		if !ok || msg == "" || strings.HasPrefix(msg, "To see the full") || strings.HasPrefix(msg, "Re-run Maven") ||
			strings.HasPrefix(msg, "For more information") || strings.HasPrefix(msg, "[Help") || strings.HasPrefix(msg, "After correcting") || strings.HasPrefix(msg, "mvn <args>") {
			continue
		}
		msgs = append(msgs, msg)
		if len(msgs) == 3 {
			break
		}
	}
	if len(msgs) == 0 {
		return "no error message"
	}
	return strings.Join(msgs, "; ")
}

// parseTree reads the text output of dependency:tree: the module's coordinates, then
// one line per dependency whose indentation (three characters a level: "+- ",
// "\- ", "|  ", "   ") is its depth.
func parseTree(data []byte) (root Coord, deps []Dep, err error) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	first := true
	var via Coord
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if first {
			first = false
			f := strings.Split(strings.TrimSpace(l), ":")
			if len(f) < 4 {
				return root, nil, fmt.Errorf("line %d: %q is not group:artifact:packaging:version", i+1, l)
			}
			root = Coord{Group: f[0], Artifact: f[1], Type: f[2], Version: f[len(f)-1]}
			continue
		}
		j := 0
		for j < len(l) && strings.ContainsRune("|+-\\ ", rune(l[j])) {
			j++
		}
		if j == 0 || j%3 != 0 {
			return root, nil, fmt.Errorf("line %d: %q is not a dependency of the tree", i+1, l)
		}
		depth := j / 3
		text := l[j:]
		optional := false
		if k := strings.Index(text, " "); k >= 0 {
			optional = strings.Contains(text[k:], "(optional")
			text = text[:k]
		}
		f := strings.Split(text, ":")
		var d Dep
		switch len(f) {
		case 5:
			d.Coord = Coord{Group: f[0], Artifact: f[1], Type: f[2], Version: f[3]}
			d.Scope = f[4]
		case 6:
			d.Coord = Coord{Group: f[0], Artifact: f[1], Type: f[2], Classifier: f[3], Version: f[4]}
			d.Scope = f[5]
		default:
			return root, nil, fmt.Errorf("line %d: %q is not group:artifact:type[:classifier]:version:scope", i+1, text)
		}
		if d.Coord.Type == "jar" {
			d.Coord.Type = ""
		}
		d.Depth, d.Optional = depth, optional
		if depth == 1 {
			via = d.Coord
		} else if len(deps) == 0 || depth > deps[len(deps)-1].Depth+1 {
			return root, nil, fmt.Errorf("line %d: indented deeper than the line above allows", i+1)
		}
		d.Via = via
		deps = append(deps, d)
	}
	if first {
		return root, nil, fmt.Errorf("empty dependency tree")
	}
	return root, deps, nil
}
