package buildtool

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// model is a POM's effective model, as far as dependencies go: inherited from its
// parents, profiles applied, interpolated, BOMs imported and dependency management
// applied to its dependencies.
type model struct {
	File     string
	Coord    Coord // Type is the packaging
	Props    map[string]string
	Deps     []pomDep // management applied; Scope and Type defaulted
	Managed  []pomDep // imports expanded
	Modules  []string
	Plugins  map[string]string
	Relocate *Coord
	Parents  []string // files of the parent chain that were read, nearest first
	// ProfileDeps says a profile of the POM or of a parent declares dependencies,
	// active or not: profiles can be activated in ways the reader does not see
	// (settings.xml's activeProfiles, the OS).
	ProfileDeps bool

	// What children inherit: as written, before interpolation, which sees the
	// child's values (a parent's ${guava.version} is the child's property).
	rawDeps, rawManaged []pomDep
	rawPlugins          map[string]string
}

// builder builds effective models, caching them by file.
type builder struct {
	repos     *repos
	userProps map[string]string // -D of .mvn/maven.config: they win over everything
	sysProps  map[string]string // java.version, os.name, ...
	profiles  map[string]bool   // -P of .mvn/maven.config (false: deactivated with !id)
	env       func(string) (string, bool)
	models    map[string]*model
	errs      map[string]error
	loading   map[string]bool
	// read are the files of the workspace read (POMs of modules and of parents
	// found by relative path): what a cached result depends on.
	read     map[string]bool
	problems []Problem
}

func newBuilder(r *repos, userProps, sysProps map[string]string, profiles map[string]bool) *builder {
	return &builder{repos: r, userProps: userProps, sysProps: sysProps, profiles: profiles,
		env:    os.LookupEnv,
		models: map[string]*model{}, errs: map[string]error{}, loading: map[string]bool{}, read: map[string]bool{}}
}

func (b *builder) problem(pos Pos, c Coord, format string, args ...any) {
	p := Problem{Pos: pos, Dep: c, Msg: fmt.Sprintf(format, args...)}
	if !slices.Contains(b.problems, p) {
		b.problems = append(b.problems, p)
	}
}

// loadCoord returns the effective model of an artifact's POM in the repositories;
// nil when the repositories do not have it.
func (b *builder) loadCoord(c Coord) (*model, error) {
	p := b.repos.pom(c)
	if p == "" {
		return nil, nil
	}
	return b.load(p, true)
}

// load returns the effective model of the POM file. inRepo says the POM is a
// repository's, whose parent is looked up in the repositories only (as Maven does
// for dependencies).
func (b *builder) load(file string, inRepo bool) (*model, error) {
	if m, ok := b.models[file]; ok {
		return m, nil
	}
	if err, ok := b.errs[file]; ok {
		return nil, err
	}
	if b.loading[file] {
		return nil, fmt.Errorf("%s: its parents or imports lead back to it", file)
	}
	b.loading[file] = true
	defer delete(b.loading, file)
	m, err := b.build(file, inRepo)
	if err != nil {
		b.errs[file] = err
		return nil, err
	}
	b.models[file] = m
	return m, nil
}

func (b *builder) build(file string, inRepo bool) (*model, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if !inRepo {
		b.read[file] = true
	}
	p, err := parsePOM(file, data)
	if err != nil {
		return nil, err
	}
	m := &model{File: file, Props: map[string]string{}, Plugins: map[string]string{}}
	var parent *model
	if p.Parent != nil {
		parent = b.parent(p, inRepo)
	}
	var deps, managed []pomDep
	if parent != nil {
		m.Coord.Group, m.Coord.Version = parent.Coord.Group, parent.Coord.Version
		for k, v := range parent.Props {
			m.Props[k] = v
		}
		for k, v := range parent.rawPlugins {
			m.Plugins[k] = v
		}
		deps = slices.Clone(parent.rawDeps)
		managed = slices.Clone(parent.rawManaged)
		m.Parents = append([]string{parent.File}, parent.Parents...)
		m.ProfileDeps = parent.ProfileDeps
	} else if p.Parent != nil {
		m.Coord.Group, m.Coord.Version = p.Parent.Group, p.Parent.Version
	}
	if p.Group != "" {
		m.Coord.Group = p.Group
	}
	if p.Version != "" {
		m.Coord.Version = p.Version
	}
	m.Coord.Artifact = p.Artifact
	m.Coord.Type = p.Packaging
	if m.Coord.Type == "" {
		m.Coord.Type = "jar"
	}
	for _, pr := range p.Props {
		m.Props[pr.Key] = pr.Value
	}
	for k, v := range p.Plugins {
		m.Plugins[k] = v
	}
	deps = mergeDeps(deps, p.Deps)
	managed = mergeDeps(managed, p.Managed)
	m.Modules = slices.Clone(p.Modules)
	for _, pr := range p.Profiles {
		m.ProfileDeps = m.ProfileDeps || len(pr.Deps) > 0
	}
	for _, pr := range b.activeProfiles(p, m) {
		for _, kv := range pr.Props {
			m.Props[kv.Key] = kv.Value
		}
		deps = mergeDeps(deps, pr.Deps)
		managed = mergeDeps(managed, pr.Managed)
		m.Modules = append(m.Modules, pr.Modules...)
	}
	m.rawDeps, m.rawManaged = slices.Clone(deps), slices.Clone(managed)
	m.rawPlugins = maps.Clone(m.Plugins)
	// Interpolation sees the model's own values, inherited parts included: a
	// parent's ${project.version} is its child's version.
	m.Coord.Group = b.interp(m, m.Coord.Group)
	m.Coord.Version = b.interp(m, m.Coord.Version)
	m.Coord.Artifact = b.interp(m, m.Coord.Artifact)
	for k, v := range m.Plugins {
		m.Plugins[k] = b.interp(m, v)
	}
	if p.Relocation != nil {
		r := Coord{Group: b.interp(m, p.Relocation.Group), Artifact: b.interp(m, p.Relocation.Artifact), Version: b.interp(m, p.Relocation.Version)}
		m.Relocate = &r
	}
	for i := range managed {
		b.interpDep(m, &managed[i])
	}
	m.Managed = b.importBOMs(managed)
	for i := range deps {
		d := &deps[i]
		b.interpDep(m, d)
		if md, ok := findManaged(m.Managed, d); ok {
			if d.Version == "" {
				d.Version = md.Version
			}
			if d.Scope == "" {
				d.Scope = md.Scope
			}
			if d.Optional == "" {
				d.Optional = md.Optional
			}
			d.Exclusions = append(slices.Clone(d.Exclusions), md.Exclusions...)
		}
		if d.Scope == "" {
			d.Scope = "compile"
		}
	}
	m.Deps = deps
	return m, nil
}

// parent returns the parent's model: the POM at the relative path when it is the
// parent named, else the repositories'.
func (b *builder) parent(p *pom, inRepo bool) *model {
	ref := p.Parent
	c := Coord{Group: b.interpUser(ref.Group), Artifact: b.interpUser(ref.Artifact), Version: b.interpUser(ref.Version)}
	if !inRepo && !(ref.HasRelativePath && ref.RelativePath == "") {
		rel := ref.RelativePath
		if rel == "" {
			rel = "../pom.xml"
		}
		cand := filepath.Join(filepath.Dir(p.File), filepath.FromSlash(rel))
		if isDir(cand) {
			cand = filepath.Join(cand, "pom.xml")
		}
		if isFile(cand) {
			pm, err := b.load(cand, false)
			if err == nil && pm.Coord.Group == c.Group && pm.Coord.Artifact == c.Artifact {
				return pm
			}
			if err != nil && !strings.Contains(err.Error(), "lead back") {
				b.problem(ref.Pos, c, "parent %s: %v", c, err)
			}
		}
	}
	pm, err := b.loadCoord(c)
	switch {
	case err != nil:
		b.problem(ref.Pos, c, "parent %s: %v", c, err)
	case pm == nil:
		b.problem(ref.Pos, c, "parent %s is not in the local repository (%s)", c, b.repos.expected(Coord{Group: c.Group, Artifact: c.Artifact, Version: c.Version, Type: "pom"}))
	}
	return pm
}

// activeProfiles returns the profiles of p that are active: named in
// .mvn/maven.config, or activated by the JDK, a property or a file, else those
// active by default.
func (b *builder) activeProfiles(p *pom, m *model) []profile {
	var out []profile
	for _, pr := range p.Profiles {
		if on, ok := b.profiles[pr.ID]; ok {
			if on {
				out = append(out, pr)
			}
			continue
		}
		if b.activated(&pr, m) {
			out = append(out, pr)
		}
	}
	if len(out) == 0 {
		for _, pr := range p.Profiles {
			if on, ok := b.profiles[pr.ID]; pr.ActiveByDefault && (!ok || on) {
				out = append(out, pr)
			}
		}
	}
	return out
}

func (b *builder) activated(pr *profile, m *model) bool {
	any := false
	if pr.JDK != "" {
		any = true
		if !jdkMatches(pr.JDK, b.sysProps["java.version"]) {
			return false
		}
	}
	if pr.Property != "" {
		any = true
		name, neg := strings.CutPrefix(pr.Property, "!")
		v, ok := b.userProps[name]
		if !ok {
			v, ok = b.sysProps[name]
		}
		switch {
		case neg && ok, !neg && !ok:
			return false
		case !neg && pr.PropertyValue != "":
			want, vneg := strings.CutPrefix(pr.PropertyValue, "!")
			if (v == want) == vneg {
				return false
			}
		}
	}
	if pr.File != "" {
		any = true
		f, missing := strings.CutPrefix(pr.File, "!")
		f = strings.ReplaceAll(b.interp(m, f), "${basedir}", filepath.Dir(m.File))
		if !filepath.IsAbs(f) {
			f = filepath.Join(filepath.Dir(m.File), f)
		}
		if _, err := os.Stat(f); (err == nil) == missing {
			return false
		}
	}
	return any
}

// jdkMatches evaluates a profile's <jdk> against the JDK's version: a prefix
// ("17", "1.8"), its negation, or a range ([11,)).
func jdkMatches(spec, version string) bool {
	if version == "" {
		return false
	}
	if r, ok := parseRange(spec); ok {
		return r.contains(version)
	}
	spec, neg := strings.CutPrefix(spec, "!")
	ok := version == spec || strings.HasPrefix(version, spec+".") || strings.HasPrefix(version, spec+"-")
	return ok != neg
}

// mergeDeps overlays child on parent: a child's dependency replaces the parent's of
// the same artifact.
func mergeDeps(parent, child []pomDep) []pomDep {
	out := slices.Clone(parent)
	for _, d := range child {
		k := rawKey(&d)
		if i := slices.IndexFunc(out, func(o pomDep) bool { return rawKey(&o) == k }); i >= 0 {
			out[i] = d
		} else {
			out = append(out, d)
		}
	}
	return out
}

func rawKey(d *pomDep) string {
	return depCoord(d).key()
}

// depCoord is a dependency's artifact; a jar's type is "" (Coord's canonical form).
func depCoord(d *pomDep) Coord {
	t := d.Type
	if t == "jar" {
		t = ""
	}
	return Coord{Group: d.Group, Artifact: d.Artifact, Version: d.Version, Type: t, Classifier: d.Classifier}
}

func findManaged(managed []pomDep, d *pomDep) (pomDep, bool) {
	k := rawKey(d)
	for _, md := range managed {
		if rawKey(&md) == k {
			return md, true
		}
	}
	return pomDep{}, false
}

// importBOMs replaces the import-scoped entries of dependency management with the
// managed dependencies of the POMs they name (an entry of the importing POM wins,
// then earlier imports).
func (b *builder) importBOMs(managed []pomDep) []pomDep {
	var out, imports []pomDep
	for _, d := range managed {
		if d.Scope == "import" && d.Type == "pom" {
			imports = append(imports, d)
		} else {
			out = append(out, d)
		}
	}
	for _, imp := range imports {
		c := depCoord(&imp)
		c.Type = "pom"
		bom, err := b.loadCoord(c)
		switch {
		case err != nil:
			b.problem(imp.Pos, c, "imported %s: %v", c, err)
			continue
		case bom == nil:
			b.problem(imp.Pos, c, "%s (imported dependency management) is not in the local repository (%s)", c, b.repos.expected(c))
			continue
		}
		for _, md := range bom.Managed {
			if _, ok := findManaged(out, &md); !ok {
				md.Pos = imp.Pos // what the user declared
				out = append(out, md)
			}
		}
	}
	return out
}

func (b *builder) interpDep(m *model, d *pomDep) {
	d.Group = b.interp(m, d.Group)
	d.Artifact = b.interp(m, d.Artifact)
	d.Version = b.interp(m, d.Version)
	d.Type = b.interp(m, d.Type)
	d.Classifier = b.interp(m, d.Classifier)
	d.Scope = b.interp(m, d.Scope)
	d.Optional = b.interp(m, d.Optional)
	d.SystemPath = b.interp(m, d.SystemPath)
	if d.Type == "" {
		d.Type = "jar"
	}
}

// interpUser interpolates with the user's properties only (a parent's ${revision}).
func (b *builder) interpUser(s string) string {
	return b.interp(&model{Props: map[string]string{}}, s)
}

// interp replaces ${...} expressions, recursively (bounded); an unknown
// expression stays as written, as Maven leaves it.
func (b *builder) interp(m *model, s string) string {
	for range 10 {
		if !strings.Contains(s, "${") {
			return s
		}
		var out strings.Builder
		changed := false
		rest := s
		for {
			i := strings.Index(rest, "${")
			if i < 0 {
				out.WriteString(rest)
				break
			}
			j := strings.IndexByte(rest[i:], '}')
			if j < 0 {
				out.WriteString(rest)
				break
			}
			out.WriteString(rest[:i])
			expr := rest[i+2 : i+j]
			if v, ok := b.value(m, expr); ok {
				out.WriteString(v)
				changed = true
			} else {
				out.WriteString(rest[i : i+j+1])
			}
			rest = rest[i+j+1:]
		}
		s = out.String()
		if !changed {
			return s
		}
	}
	return s
}

func (b *builder) value(m *model, expr string) (string, bool) {
	if v, ok := b.userProps[expr]; ok {
		return v, true
	}
	dir := filepath.Dir(m.File)
	switch strings.TrimPrefix(strings.TrimPrefix(expr, "project."), "pom.") {
	case "groupId":
		return m.Coord.Group, m.Coord.Group != ""
	case "artifactId":
		return m.Coord.Artifact, m.Coord.Artifact != ""
	case "version":
		return m.Coord.Version, m.Coord.Version != ""
	case "packaging":
		return m.Coord.Type, true
	case "basedir":
		return dir, m.File != ""
	case "build.directory":
		return filepath.Join(dir, "target"), m.File != ""
	case "parent.version", "parent.groupId":
		// The parent's coordinates are the inherited ones unless overridden; close
		// enough for the expressions met in dependency declarations.
		if strings.HasSuffix(expr, "version") {
			return m.Coord.Version, m.Coord.Version != ""
		}
		return m.Coord.Group, m.Coord.Group != ""
	}
	if name, ok := strings.CutPrefix(expr, "env."); ok && b.env != nil {
		return b.env(name)
	}
	if v, ok := m.Props[expr]; ok {
		return v, true
	}
	v, ok := b.sysProps[expr]
	return v, ok
}
