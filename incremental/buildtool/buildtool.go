// Package buildtool finds the class path a build tool would use for a workspace's
// build: for Maven, the dependencies of every module of the reactor (parents,
// properties, dependency management and imported BOMs, profiles, scopes,
// exclusions, optional and transitive dependencies); for Gradle, each project's
// runtimeClasspath and testRuntimeClasspath.
//
// Where the workspace is trusted and the build tool is installed, the tool itself
// is asked, offline (`mvn dependency:tree`, a Gradle init script): running it runs
// the project's build logic, which only a trusted workspace may do. Otherwise the
// build files and the local repositories are read as the tool would read them (POM
// model building and Maven's resolution rules; for Gradle, the dependencies
// declared in string notation), and the result says so. What cannot be resolved is
// a Problem at the build file's line.
//
// Results are cached by the content of every file they depend on (the POMs of the
// modules and of their parents in the workspace, settings.xml,
// .mvn/maven.config, the Gradle build scripts), in memory and on disk, and checked
// against the local repository on use (an artifact that appeared or vanished
// resolves again). The package runs processes and reads files: it sits beside
// incremental's project discovery, which uses it, and below the analysis, which
// never sees it.
package buildtool

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/internal/atomicfile"
)

// Modes of the jcg.buildTool setting.
const (
	ModeAuto   = "auto"   // Maven where there is a pom.xml, else Gradle where there is a build script
	ModeMaven  = "maven"  // Maven builds only
	ModeGradle = "gradle" // Gradle builds only
	ModeOff    = "off"    // no build tool, no build files: discovery of build output only
)

// Modes lists the valid modes.
var Modes = []string{ModeAuto, ModeMaven, ModeGradle, ModeOff}

// cacheFormat is part of every cache key: change it when Result or the way it is
// computed changes.
const cacheFormat = "buildtool-v1"

// Options configure a Resolver.
type Options struct {
	// CacheDir keeps results on disk across processes; "" keeps them in memory only.
	CacheDir string
	// Maven and Gradle are the executables to run; "" looks for mvn (and a
	// project's gradlew, then gradle) on PATH.
	Maven, Gradle string
	// Home is the user's home directory (settings.xml, ~/.m2, ~/.gradle); "" is
	// $HOME.
	Home string
	// Timeout bounds one run of a build tool; default 3 minutes.
	Timeout time.Duration
	Logger  *zap.Logger
}

// Request says which build to resolve and how.
type Request struct {
	Dir  string // the directory of the build's root build file
	Mode string // one of Modes; "" is auto
	// Trusted says the workspace is trusted: the build tool may run (it runs the
	// project's build logic). Untrusted, only files are read.
	Trusted bool
	// JavaVersion is the JDK's version ("17.0.9"), for profiles activated by JDK.
	JavaVersion string
}

// DefaultCacheDir is os.UserCacheDir()/jcg-lsp/buildpath, where the language server
// and the commands keep results.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "jcg-lsp", "buildpath"), nil
}

// Resolver resolves build class paths and caches them. Safe for concurrent use;
// resolutions run one at a time.
type Resolver struct {
	opts Options
	log  *zap.Logger

	mu  sync.Mutex
	mem map[string]*Result // by cache key
}

// New returns a resolver.
func New(opts Options) *Resolver {
	if opts.Timeout <= 0 {
		opts.Timeout = 3 * time.Minute
	}
	if opts.Home == "" {
		opts.Home, _ = os.UserHomeDir()
	}
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	return &Resolver{opts: opts, log: log, mem: map[string]*Result{}}
}

// Tool returns the build tool of the build at dir under the mode ("maven",
// "gradle"), or "" when the mode is off or dir has no build file of a tool it
// allows.
func Tool(dir, mode string) string {
	maven := isFile(filepath.Join(dir, "pom.xml"))
	gradle := false
	for _, n := range []string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"} {
		gradle = gradle || isFile(filepath.Join(dir, n))
	}
	switch {
	case maven && (mode == "" || mode == ModeAuto || mode == ModeMaven):
		return "maven"
	case gradle && (mode == "" || mode == ModeAuto || mode == ModeGradle):
		return "gradle"
	}
	return ""
}

// Resolve returns the class path of the build at req.Dir; nil when there is none to
// resolve (Tool says ""). The error is ctx's, or says why nothing could be read;
// what could not be resolved is in the result's Problems and Notes.
func (r *Resolver) Resolve(ctx context.Context, req Request) (*Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch Tool(req.Dir, req.Mode) {
	case "maven":
		return r.resolveMaven(ctx, req)
	case "gradle":
		return r.resolveGradle(ctx, req)
	}
	return nil, nil
}

func (r *Resolver) resolveMaven(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	mvn := r.opts.Maven
	if mvn == "" {
		mvn, _ = exec.LookPath("mvn")
	}
	mb := readMaven(req.Dir, mvn, r.opts.Home, req.JavaVersion)
	plugin := ""
	why := ""
	switch {
	case !req.Trusted:
		why = "the workspace is not trusted, so Maven was not run"
	case mb.noDependencies():
		// Nothing for Maven to resolve: a run would cost seconds for nothing.
		why = "no module declares a dependency, so Maven was not run"
	case mvn == "":
		why = "mvn is not on PATH"
	default:
		if plugin = mb.dependencyPlugin(); plugin == "" {
			why = fmt.Sprintf("maven-dependency-plugin is not in the local repository %s, so Maven cannot run offline (run `mvn dependency:tree` once online)", mb.conf.localRepo)
		}
	}
	run := why == ""
	key := cacheKey("maven", run, mvn+" "+plugin, mb.conf.localRepo, req.JavaVersion, mb.inputs())
	if res := r.cached(key); res != nil {
		return res, nil
	}
	res := &Result{Tool: "maven", Root: req.Dir, Inputs: key.inputs}
	res.Problems = append(res.Problems, mb.errs...)
	if run {
		mods, notes, err := mb.runMaven(ctx, mvn, plugin, r.opts.Timeout)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res.Notes = append(res.Notes, notes...)
		if err != nil {
			res.Notes = append(res.Notes, err.Error())
		}
		res.Modules = mods
		res.Ran = len(mods) > 0
		res.How = "mvn dependency:tree (offline, maven-dependency-plugin " + plugin + ")"
		done := map[string]bool{}
		for _, m := range mods {
			done[m.Coord.GA()] = true
		}
		if len(done) < len(mb.mods) {
			mb.resolveFromFiles(res, done)
			res.Notes = append(res.Notes, fmt.Sprintf("%d of %d modules resolved from the POM files: Maven did not resolve them", len(mb.mods)-len(done), len(mb.mods)))
		}
	} else {
		mb.resolveFromFiles(res, nil)
		res.How = "the POM files and the local repository " + mb.conf.localRepo + " (" + why + ")"
	}
	finish(res, mb.b.repos)
	res.Took = time.Since(start)
	r.store(key, res)
	r.log.Info("buildtool: resolved", zap.String("root", req.Dir), zap.String("how", res.How),
		zap.Int("modules", len(res.Modules)), zap.Int("libraries", len(res.Libraries())), zap.Duration("took", res.Took))
	return res, nil
}

// finish adds what every result says of its missing dependencies: a problem at the
// declaration that brings each, and the packages another version in the local
// repository holds.
func finish(res *Result, rp *repos) {
	pkgs := map[string][]string{}
	for mi := range res.Modules {
		for di := range res.Modules[mi].Deps {
			d := &res.Modules[mi].Deps[di]
			if !d.Missing() || slices.ContainsFunc(res.Problems, func(p Problem) bool { return p.Dep == d.Coord && p.Pos == d.Declared }) {
				continue
			}
			for _, v := range rp.versions(d.Coord.Group, d.Coord.Artifact) {
				oc := d.Coord
				oc.Version = v
				if v == d.Coord.Version {
					continue
				}
				if p := rp.artifact(oc); p != "" {
					if _, ok := pkgs[p]; !ok {
						pkgs[p] = jarPackages(p)
					}
					d.OtherVersion, d.Packages = v, pkgs[p]
					break
				}
			}
			d.Expected = rp.expected(d.Coord)
			msg := fmt.Sprintf("%s is not in the local repository (%s)", d.Coord, rp.expected(d.Coord))
			if d.Via != d.Coord {
				msg = fmt.Sprintf("%s, a dependency of %s, is not in the local repository (%s)", d.Coord, d.Via, rp.expected(d.Coord))
			}
			if d.OtherVersion != "" {
				msg += "; version " + d.OtherVersion + " is"
			}
			p := Problem{Pos: d.Declared, Dep: d.Coord, Msg: msg}
			if !slices.Contains(res.Problems, p) {
				res.Problems = append(res.Problems, p)
			}
		}
	}
}

// jarPackages lists the packages of a jar's classes (dotted names).
func jarPackages(p string) []string {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil
	}
	defer zr.Close()
	seen := map[string]bool{}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".class") || strings.HasPrefix(f.Name, "META-INF/") {
			continue
		}
		if dir := path.Dir(f.Name); dir != "." {
			seen[strings.ReplaceAll(dir, "/", ".")] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// key is a cache key and the inputs it was made of.
type key struct {
	hash   string
	inputs []Input
}

// cacheKey hashes what a result depends on: the tool and how it is asked, the
// local repository, the JDK's version and the content of every input file.
func cacheKey(tool string, run bool, how, repo, java string, files []string) key {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s run=%v %s\nrepo=%s\njava=%s\n", cacheFormat, tool, run, how, repo, java)
	var k key
	for _, f := range files {
		in := Input{Path: f, Hash: HashFile(f)}
		fmt.Fprintf(h, "%s %s\n", in.Path, in.Hash)
		k.inputs = append(k.inputs, in)
	}
	k.hash = hex.EncodeToString(h.Sum(nil)[:16])
	return k
}

// HashFile returns the hash of a file's content as Input.Hash has it ("" when it
// cannot be read).
func HashFile(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:16])
}

// cached returns the cached result of a key, if it still holds: every artifact it
// found is still there and every one it missed still missing.
func (r *Resolver) cached(k key) *Result {
	res := r.mem[k.hash]
	if res == nil && r.opts.CacheDir != "" {
		res = r.load(k.hash)
	}
	if res == nil || !valid(res) {
		return nil
	}
	r.mem[k.hash] = res
	c := *res
	c.FromCache = true
	return &c
}

func valid(res *Result) bool {
	for _, m := range res.Modules {
		for _, d := range m.Deps {
			if d.Path != "" && !isFile(d.Path) || d.Missing() && d.Expected != "" && isFile(d.Expected) {
				return false
			}
		}
	}
	return true
}

func (r *Resolver) store(k key, res *Result) {
	r.mem[k.hash] = res
	if r.opts.CacheDir == "" {
		return
	}
	data, err := json.Marshal(cacheFile{Format: cacheFormat, Result: res})
	if err == nil {
		err = atomicfile.WriteFile(filepath.Join(r.opts.CacheDir, k.hash+".json"), data)
	}
	if err != nil {
		r.log.Warn("buildtool: cannot cache the result", zap.Error(err))
	}
}

type cacheFile struct {
	Format string  `json:"format"`
	Result *Result `json:"result"`
}

func (r *Resolver) load(hash string) *Result {
	data, err := os.ReadFile(filepath.Join(r.opts.CacheDir, hash+".json"))
	if err != nil {
		return nil
	}
	var cf cacheFile
	if err := json.Unmarshal(data, &cf); err != nil || cf.Format != cacheFormat || cf.Result == nil {
		r.log.Debug("buildtool: ignoring a damaged cache file", zap.String("key", hash), zap.Error(err))
		return nil
	}
	return cf.Result
}
