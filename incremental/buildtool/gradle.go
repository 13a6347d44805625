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

// initScript is the Gradle init script that prints, for every project, the files of
// its runtimeClasspath and testRuntimeClasspath (resolved leniently: what cannot be
// resolved is listed, not fatal). Lines are tab-separated, prefixed "jcg-lsp".
const initScript = `// Written by jcg-lsp: prints each project's resolved class paths.
allprojects { p ->
    p.tasks.register('jcgLspClasspath') {
        doLast {
            println "jcg-lsp\tproject\t${p.path}\t${p.projectDir}\t${p.group}\t${p.name}\t${p.version}"
            ['runtimeClasspath', 'testRuntimeClasspath'].each { name ->
                def cfg = p.configurations.findByName(name)
                if (cfg == null || !cfg.canBeResolved) {
                    return
                }
                cfg.incoming.resolutionResult.allDependencies.each { d ->
                    if (d instanceof org.gradle.api.artifacts.result.UnresolvedDependencyResult) {
                        def msg = (d.failure.message ?: '').readLines().join(' ')
                        println "jcg-lsp\tunresolved\t${name}\t${d.attempted.displayName}\t${msg}"
                    }
                }
                cfg.incoming.artifactView { lenient = true }.artifacts.each { a ->
                    def id = a.id.componentIdentifier
                    def kind = id instanceof org.gradle.api.artifacts.component.ProjectComponentIdentifier ? 'project' : 'module'
                    println "jcg-lsp\tfile\t${name}\t${kind}\t${id.displayName}\t${a.file}"
                }
            }
        }
    }
}
`

// gradleBuild is a Gradle build read from its files.
type gradleBuild struct {
	root     string
	projects []gradleProject // root first
	files    []string        // build files read
	conf     *mavenConf      // for the local Maven repository (mavenLocal())
	repos    *repos
}

type gradleProject struct {
	path, dir, script string // ":core", its directory, its build script ("" for none)
	deps              []pomDep
}

var (
	includeLine = regexp.MustCompile(`(?m)^\s*include\b(.*)$`)
	quoted      = regexp.MustCompile(`["']([^"']+)["']`)
	// A dependency in string notation: configuration 'group:artifact:version[:classifier][@ext]'.
	gradleDep = regexp.MustCompile(`(?m)^\s*(implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|testCompileOnly|compile|runtime|testCompile|testRuntime)\s*\(?\s*["']([^"'\s:]+):([^"'\s:]+):([^"'\s:@]+)(?::([^"'\s@]+))?(?:@(\w+))?["']`)
)

// readGradle reads the build at root: settings.gradle(.kts)'s included projects and
// the dependencies each build script declares in string notation.
func readGradle(root, home string) *gradleBuild {
	gb := &gradleBuild{root: root, conf: readMavenConf(root, "", home)}
	gradleHome := os.Getenv("GRADLE_USER_HOME")
	if gradleHome == "" && home != "" {
		gradleHome = filepath.Join(home, ".gradle")
	}
	gb.repos = &repos{maven: []string{gb.conf.localRepo}}
	if gradleHome != "" {
		gb.repos.gradle = filepath.Join(gradleHome, "caches", "modules-2", "files-2.1")
	}
	paths := []string{":"}
	for _, n := range []string{"settings.gradle", "settings.gradle.kts"} {
		f := filepath.Join(root, n)
		data, err := os.ReadFile(f)
		gb.files = append(gb.files, f)
		if err != nil {
			continue
		}
		for _, m := range includeLine.FindAllStringSubmatch(string(data), -1) {
			for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
				p := q[1]
				if !strings.HasPrefix(p, ":") {
					p = ":" + p
				}
				paths = append(paths, p)
			}
		}
	}
	for _, n := range []string{"gradle.properties", "gradle/libs.versions.toml"} {
		gb.files = append(gb.files, filepath.Join(root, n))
	}
	for _, p := range paths {
		dir := filepath.Join(root, filepath.FromSlash(strings.ReplaceAll(strings.TrimPrefix(p, ":"), ":", "/")))
		gp := gradleProject{path: p, dir: dir}
		for _, n := range []string{"build.gradle", "build.gradle.kts"} {
			f := filepath.Join(dir, n)
			gb.files = append(gb.files, f)
			data, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			gp.script = f
			gp.deps = append(gp.deps, gradleDeps(f, data)...)
		}
		gb.projects = append(gb.projects, gp)
	}
	return gb
}

// gradleDeps returns the dependencies a build script declares in string notation,
// as POM dependencies with their scope.
func gradleDeps(file string, data []byte) []pomDep {
	li := newLineIndex(data)
	var out []pomDep
	for _, m := range gradleDep.FindAllSubmatchIndex(data, -1) {
		s := func(i int) string {
			if m[2*i] < 0 {
				return ""
			}
			return string(data[m[2*i]:m[2*i+1]])
		}
		d := pomDep{Group: s(2), Artifact: s(3), Version: s(4), Classifier: s(5), Type: s(6), Scope: gradleScope(s(1))}
		start := m[2]
		d.Pos = li.pos(file, int64(start))
		if d.Type == "" {
			d.Type = "jar"
		}
		out = append(out, d)
	}
	return out
}

func gradleScope(conf string) string {
	switch conf {
	case "compileOnly":
		return "provided"
	case "runtimeOnly", "runtime":
		return "runtime"
	case "testImplementation", "testRuntimeOnly", "testCompileOnly", "testCompile", "testRuntime":
		return "test"
	}
	return "compile"
}

// gradleExecutable returns the Gradle to run: the project's wrapper, else the
// configured one or gradle on PATH ("" for none).
func (r *Resolver) gradleExecutable(root string) string {
	if w := filepath.Join(root, "gradlew"); isFile(w) {
		if fi, err := os.Stat(w); err == nil && fi.Mode()&0o111 != 0 {
			return w
		}
	}
	if r.opts.Gradle != "" {
		return r.opts.Gradle
	}
	p, _ := exec.LookPath("gradle")
	return p
}

func (r *Resolver) resolveGradle(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	gb := readGradle(req.Dir, r.opts.Home)
	gradle := ""
	why := ""
	switch {
	case !req.Trusted:
		why = "the workspace is not trusted, so Gradle was not run"
	default:
		if gradle = r.gradleExecutable(req.Dir); gradle == "" {
			why = "no gradlew in the project and gradle is not on PATH"
		}
	}
	run := why == ""
	inputs := append(slices.Clone(gb.files), gb.conf.mavenConfig)
	if gb.conf.userSettings != "" {
		inputs = append(inputs, gb.conf.userSettings)
	}
	k := cacheKey("gradle", run, gradle, gb.conf.localRepo, req.JavaVersion, inputs)
	if res := r.cached(k); res != nil {
		return res, nil
	}
	res := &Result{Tool: "gradle", Root: req.Dir, Inputs: k.inputs}
	if run {
		out, err := r.runGradle(ctx, gb, gradle)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err == nil {
			var mods []Module
			var probs []Problem
			mods, probs, err = parseGradleOutput(out, gb)
			res.Modules, res.Problems = mods, probs
		}
		if err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("%s failed: %v", gradle, err))
			run = false
			why = "Gradle failed"
		} else {
			res.Ran = true
			res.How = "a Gradle init script (" + gradle + " --offline)"
		}
	}
	if !run {
		b := newBuilder(gb.repos, gb.conf.userProps, map[string]string{"java.version": req.JavaVersion}, nil)
		for _, gp := range gb.projects {
			m := &model{File: gp.script, Deps: gp.deps, Props: map[string]string{}}
			res.Modules = append(res.Modules, Module{Coord: Coord{Artifact: gp.path}, Dir: gp.dir, File: gp.script, Deps: b.resolveModule(m, nil)})
		}
		res.Problems = append(res.Problems, b.problems...)
		res.How = "the dependencies the build scripts declare in string notation, and the local repositories (" + why + "; versions from catalogs, platforms or plugins are not known)"
	}
	finish(res, gb.repos)
	res.Took = time.Since(start)
	r.store(k, res)
	return res, nil
}

// runGradle runs the init script's task offline and returns its output.
func (r *Resolver) runGradle(ctx context.Context, gb *gradleBuild, gradle string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "jcg-lsp-gradle-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "jcg-lsp.init.gradle")
	if err := os.WriteFile(script, []byte(initScript), 0o644); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, gradle, "--offline", "-q", "--console=plain", "-I", script,
		"-Dmaven.repo.local="+gb.conf.localRepo, "jcgLspClasspath")
	cmd.Dir = gb.root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("%w: %s", err, msg)
	}
	return stdout.Bytes(), nil
}

// parseGradleOutput reads what the init script printed: projects, then the files
// and unresolved dependencies of their class paths.
func parseGradleOutput(out []byte, gb *gradleBuild) ([]Module, []Problem, error) {
	var mods []Module
	var probs []Problem
	projects := 0
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 2 || f[0] != "jcg-lsp" {
			continue // the build's own output
		}
		switch {
		case f[1] == "project" && len(f) >= 7:
			projects++
			mods = append(mods, Module{Coord: Coord{Group: f[4], Artifact: f[5], Version: f[6]}, Dir: f[3], File: scriptOf(f[3])})
			clear(seen)
		case len(mods) == 0:
			return nil, nil, fmt.Errorf("line %d: %q before any project", n, sc.Text())
		case f[1] == "file" && len(f) >= 6:
			m := &mods[len(mods)-1]
			if seen[f[5]] {
				continue
			}
			seen[f[5]] = true
			d := Dep{Depth: 1, Scope: gradleScopeOf(f[2]), Path: f[5]}
			if f[3] == "project" {
				d.Module = true
				d.Coord = Coord{Artifact: strings.TrimPrefix(f[4], "project ")}
			} else {
				d.Coord = parseGA(f[4])
			}
			d.Via = d.Coord
			d.Declared = declaredIn(m.File, d.Coord)
			m.Deps = append(m.Deps, d)
		case f[1] == "unresolved" && len(f) >= 4:
			m := &mods[len(mods)-1]
			c := parseGA(f[3])
			if seen["?"+f[3]] {
				continue
			}
			seen["?"+f[3]] = true
			d := Dep{Depth: 1, Scope: gradleScopeOf(f[2]), Coord: c, Via: c, Declared: declaredIn(m.File, c)}
			m.Deps = append(m.Deps, d)
			msg := ""
			if len(f) >= 5 {
				msg = f[4]
			}
			probs = append(probs, Problem{Pos: d.Declared, Dep: c, Msg: fmt.Sprintf("%s could not be resolved: %s", f[3], msg)})
		default:
			return nil, nil, fmt.Errorf("line %d: %q is not what the init script prints", n, sc.Text())
		}
	}
	if projects == 0 {
		return nil, nil, fmt.Errorf("the init script printed no project")
	}
	return mods, probs, nil
}

func gradleScopeOf(configuration string) string {
	if strings.HasPrefix(configuration, "test") {
		return "test"
	}
	return "runtime"
}

func scriptOf(dir string) string {
	for _, n := range []string{"build.gradle", "build.gradle.kts"} {
		if f := filepath.Join(dir, n); isFile(f) {
			return f
		}
	}
	return ""
}

// parseGA reads group:artifact[:version] of a Gradle display name.
func parseGA(s string) Coord {
	f := strings.Split(s, ":")
	var c Coord
	if len(f) > 0 {
		c.Group = f[0]
	}
	if len(f) > 1 {
		c.Artifact = f[1]
	}
	if len(f) > 2 {
		c.Version = f[2]
	}
	return c
}

// declaredIn finds where a build script names group:artifact: the place of its
// declaration, for a problem's position.
func declaredIn(file string, c Coord) Pos {
	data, err := os.ReadFile(file)
	if err != nil || c.Group == "" {
		return Pos{File: file}
	}
	i := bytes.Index(data, []byte(c.Group+":"+c.Artifact))
	if i < 0 {
		return Pos{File: file}
	}
	return newLineIndex(data).pos(file, int64(i))
}
