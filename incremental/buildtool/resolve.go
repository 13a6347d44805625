package buildtool

import (
	"slices"
)

// Maven's dependency resolution, read from the POMs without Maven: what a module's
// class path is when the build tool may not (an untrusted workspace) or cannot (not
// installed) run. It follows Maven 3's rules: nearest declaration wins (the first
// in breadth-first order), the root's dependency management (and a direct
// dependency's, below it) overrides versions and scopes of transitive dependencies,
// test and provided dependencies are not transitive, nor optional ones, exclusions
// hold for everything below the dependency that declares them, and scopes derive
// along the path (a runtime dependency of a compile one is runtime).

// node is a dependency in the resolved tree.
type depNode struct {
	dep      Dep
	children []*depNode
	mgmt     []pomDep // management for the dependencies below this node
}

// resolveModule resolves the class path of the module whose effective model is m.
// modules are the models of the build's modules by group:artifact: a dependency on
// one is the application's classes, and brings what that module depends on.
func (b *builder) resolveModule(m *model, modules map[string]*model) []Dep {
	type item struct {
		d      pomDep
		scope  string
		excl   []exclusion
		depth  int
		via    Coord
		decl   Pos
		parent *depNode
	}
	root := &depNode{mgmt: m.Managed}
	winners := map[string]*depNode{}
	var queue []item
	for _, d := range m.Deps {
		if d.Scope == "import" {
			continue
		}
		c := depCoord(&d)
		queue = append(queue, item{d: d, scope: d.Scope, excl: d.Exclusions, depth: 1, via: c, decl: d.Pos, parent: root})
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		d := it.d
		if it.depth >= 2 {
			// Management of the root, then of the direct dependency above.
			for _, mg := range [][]pomDep{root.mgmt, it.parent.mgmtAbove(root)} {
				if md, ok := findManaged(mg, &d); ok {
					if md.Version != "" {
						d.Version = md.Version
					}
					if md.Scope != "" && md.Scope != "import" {
						it.scope = md.Scope
					}
					it.excl = append(slices.Clone(it.excl), md.Exclusions...)
					break
				}
			}
		}
		c := depCoord(&d)
		if w, ok := winners[c.key()]; ok {
			if w.dep.Depth > 1 {
				w.dep.Scope = widerScope(w.dep.Scope, it.scope)
			}
			continue
		}
		if r, ok := parseRange(c.Version); ok {
			c.Version = ""
			for _, v := range b.repos.versions(c.Group, c.Artifact) {
				if r.contains(v) {
					c.Version = v
					break
				}
			}
			if c.Version == "" {
				b.problem(it.decl, depCoord(&d), "no version of %s in the local repository is in the range %s", c.GA(), d.Version)
				continue
			}
		}
		n := &depNode{dep: Dep{Coord: c, Scope: it.scope, Optional: d.Optional == "true", Depth: it.depth, Via: it.via, Declared: it.decl}}
		if it.depth == 1 {
			n.dep.Via = c
		}
		winners[c.key()] = n
		it.parent.children = append(it.parent.children, n)
		dm, isModule := modules[c.GA()]
		var err error
		switch {
		case isModule:
			n.dep.Module = true
		case d.Scope == "system" || it.scope == "system":
			if isFile(d.SystemPath) {
				n.dep.Path = d.SystemPath
			}
			continue
		case c.Version == "":
			b.problem(it.decl, c, "%s has no version (none declared or managed)", c.GA())
			continue
		default:
			n.dep.Path = b.repos.artifact(c)
			dm, err = b.loadCoord(c)
		}
		for hops := 0; err == nil && dm != nil && dm.Relocate != nil && hops < 5; hops++ {
			rc := *dm.Relocate
			if rc.Group == "" {
				rc.Group = c.Group
			}
			if rc.Artifact == "" {
				rc.Artifact = c.Artifact
			}
			if rc.Version == "" {
				rc.Version = c.Version
			}
			rc.Type, rc.Classifier = c.Type, c.Classifier
			if rc == c {
				break
			}
			c = rc
			n.dep.Coord = c
			n.dep.Path = b.repos.artifact(c)
			dm, err = b.loadCoord(c)
		}
		if err != nil {
			b.problem(it.decl, c, "the POM of %s: %v", c, err)
			continue
		}
		if dm == nil {
			// As Maven: no dependency information, but the artifact may be there.
			continue
		}
		if it.depth == 1 {
			n.mgmt = dm.Managed
		}
		for _, cd := range dm.Deps {
			if cd.Scope == "test" || cd.Scope == "provided" || cd.Scope == "system" || cd.Scope == "import" || cd.Optional == "true" {
				continue
			}
			if slices.ContainsFunc(it.excl, func(e exclusion) bool { return e.matches(cd.Group, cd.Artifact) }) {
				continue
			}
			queue = append(queue, item{d: cd, scope: deriveScope(it.scope, cd.Scope), excl: append(slices.Clone(it.excl), cd.Exclusions...),
				depth: it.depth + 1, via: n.dep.Via, decl: it.decl, parent: n})
		}
	}
	var out []Dep
	var walk func(n *depNode)
	walk = func(n *depNode) {
		for _, c := range n.children {
			out = append(out, c.dep)
			walk(c)
		}
	}
	walk(root)
	return out
}

// mgmtAbove returns the management a direct dependency's POM contributes to the
// nodes below it: that of the depth-1 node on the path from root, found by the
// node's Via. Nodes below depth 1 carry none themselves.
func (n *depNode) mgmtAbove(root *depNode) []pomDep {
	if n == root {
		return nil
	}
	for _, c := range root.children {
		if c.dep.Coord.key() == n.dep.Via.key() {
			return c.mgmt
		}
	}
	return nil
}

// deriveScope is the scope of a transitive dependency of scope child under a
// dependency of scope parent (Maven's table).
func deriveScope(parent, child string) string {
	switch parent {
	case "provided", "test":
		return parent
	case "runtime":
		return "runtime"
	}
	if child == "runtime" {
		return "runtime"
	}
	return "compile"
}

// widerScope is the wider of two scopes (compile > runtime > provided > test).
func widerScope(a, b string) string {
	rank := func(s string) int {
		switch s {
		case "compile":
			return 4
		case "runtime":
			return 3
		case "provided":
			return 2
		case "test":
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}
