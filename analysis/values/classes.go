package values

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Classes is what the analyses know about the classes a site may load or create.
type Classes struct {
	Set      []*hierarchy.Class // sorted by name
	Complete bool               // Set is all of them: the site is resolved
	Evidence string             // how Set was found
	Points   []Point            // where unknown values enter
	Env      bool               // depends on configured environment values
	Unset    []string           // system properties taken as unset (Str.Unset)
}

// join adds v to a union being built: its classes to set (the union's Set is made
// from it at the end), its points, and what it depends on.
func (c *Classes) join(v Classes, set map[*hierarchy.Class]bool) {
	for _, x := range v.Set {
		set[x] = true
	}
	c.Complete = c.Complete && v.Complete
	c.Points = append(c.Points, v.Points...)
	c.dependsOn(v)
	if v.Evidence != "" {
		c.Evidence = v.Evidence
	}
}

// dependsOn adds what v depends on in the environment to c's.
func (c *Classes) dependsOn(v Classes) {
	c.Env = c.Env || v.Env
	for _, k := range v.Unset {
		if !contains(c.Unset, k) {
			c.Unset = append(c.Unset, k)
		}
	}
}

// Names resolves the string operand k of a loading site (Class.forName(name), ...)
// to classes under Correct-String: finite names that are classes, or the classes
// matching a prefix/suffix shape. Names that are not classes are dropped: under the
// level's assumption the site never throws ClassNotFoundException.
func (a *Analyzer) Names(m *hierarchy.Method, pc int32, k int) Classes {
	if !a.level.TrustsStrings() {
		return Classes{}
	}
	s := a.StringOperand(m, pc, k)
	return a.namesToClasses(s)
}

func (a *Analyzer) namesToClasses(s Str) Classes {
	out := Classes{Points: s.Points, Env: s.Env, Unset: s.Unset}
	set := map[*hierarchy.Class]bool{}
	if vs := s.Values(); vs != nil || s.empty() {
		for _, n := range vs {
			if c := a.h.Class(strings.ReplaceAll(n, ".", "/")); c != nil && !c.Phantom {
				set[c] = true
			}
		}
		out.Set, out.Complete = sortedClasses(set), true
		switch {
		case len(vs) == 0 && len(s.Unset) > 0:
			out.Evidence = unsetEvidence(s.Unset)
		case len(vs) == 1:
			out.Evidence = `string "` + vs[0] + `"`
		default:
			out.Evidence = "string analysis: " + itoa(int32(len(vs))) + " possible names"
		}
		if s.Env && len(vs) > 0 {
			out.Evidence += " (from the configured environment)"
		}
		return out
	}
	shapes, ok := s.Shapes()
	if !ok {
		return out
	}
	for i, bin := range a.ix.binaryNames() {
		c := a.h.Classes()[i]
		if c.Phantom {
			continue
		}
		for _, sh := range shapes {
			if strings.HasPrefix(bin, sh[0]) && strings.HasSuffix(bin, sh[1]) && len(bin) >= len(sh[0])+len(sh[1]) {
				set[c] = true
				break
			}
		}
	}
	out.Set, out.Complete = sortedClasses(set), true
	var descs []string
	for _, sh := range shapes {
		descs = append(descs, `"`+sh[0]+`" + … + "`+sh[1]+`"`)
	}
	out.Evidence = "string shape " + strings.Join(descs, " | ") + " matched against the program's classes"
	return out
}

// ClassOperand evaluates the Class object of operand k at pc (the receiver of
// newInstance, getMethod, ...): class constants, loading sites resolved by strings,
// and Class objects passed through returns, private parameters and private fields.
func (a *Analyzer) ClassOperand(m *hierarchy.Method, pc int32, k int) Classes {
	mi := a.methodInfo(m)
	if mi == nil {
		return Classes{}
	}
	v := a.classDefs(mi, mi.operand(pc, k), 0)
	if bound, ev, ok := a.guard(mi, pc, k); ok {
		v = v.within(a.Subtypes(bound.Set, false), ev)
	}
	return v
}

// within narrows v to the classes of in, which the evidence ev says v's classes are
// among: all of in when v is not complete.
func (v Classes) within(in []*hierarchy.Class, ev string) Classes {
	if !v.Complete {
		return Classes{Set: in, Complete: true, Evidence: ev, Env: v.Env, Unset: v.Unset}
	}
	keep := map[*hierarchy.Class]bool{}
	for _, x := range in {
		keep[x] = true
	}
	out := Classes{Complete: true, Evidence: v.Evidence + ", within " + ev, Env: v.Env, Unset: v.Unset}
	for _, x := range v.Set {
		if keep[x] {
			out.Set = append(out.Set, x)
		}
	}
	return out
}

// guard finds a test T.isAssignableFrom(c) on the Class object of operand k at pc
// (the same reaching definitions) whose true edge every path to pc takes after the
// object's last definition: the use runs only for subtypes of T, whatever the level
// assumes. It returns T's classes (complete) and the evidence.
func (a *Analyzer) guard(mi *method, pc int32, k int) (Classes, string, bool) {
	want := mi.operand(pc, k)
	if len(want) == 0 {
		return Classes{}, "", false
	}
	var restarts []int
	for _, d := range want {
		switch d.Kind {
		case facts.DefInstr, facts.DefCaught:
			restarts = append(restarts, d.N)
		case facts.DefParam: // the entry
		default:
			return Classes{}, "", false
		}
	}
	for i := range mi.f.Calls {
		c := &mi.f.Calls[i]
		if c.Ref.Class != "java/lang/Class" || c.Ref.Name != "isAssignableFrom" || !sameDefs(mi.operand(c.PC, 1), want) {
			continue
		}
		br, ok := mi.opAt(int(c.PC) + 3) // after the 3-byte invokevirtual
		if !ok || (br.Op != bytecode.Ifeq && br.Op != bytecode.Ifne) || !sameDefs(mi.operand(int32(br.PC), 0), []facts.Def{{Kind: facts.DefInstr, N: int(c.PC)}}) {
			continue
		}
		taken := br.Target // ifne jumps when the test holds, ifeq when it fails
		if br.Op == bytecode.Ifeq {
			taken = br.PC + br.Len
		}
		if !mi.flow.OnlyAfter(br.PC, taken, int(pc), restarts...) {
			continue
		}
		bound := a.classDefs(mi, mi.operand(c.PC, 0), 0)
		if !bound.Complete || len(bound.Set) == 0 {
			continue
		}
		return bound, "guarded by " + classNames(bound.Set) + ".isAssignableFrom in " + shortName(mi.m.Class.Name) + "." + mi.m.Name + " line " + itoa(mi.line(c.PC)), true
	}
	return Classes{}, "", false
}

// classNames lists classes by binary name.
func classNames(cs []*hierarchy.Class) string {
	var names []string
	for _, t := range cs {
		names = append(names, strings.ReplaceAll(t.Name, "/", "."))
	}
	return strings.Join(names, ", ")
}

// sameDefs reports whether two lists hold the same definitions.
func sameDefs(a, b []facts.Def) bool {
	if len(a) != len(b) {
		return false
	}
	for _, d := range a {
		if !slices.Contains(b, d) {
			return false
		}
	}
	return true
}

func (a *Analyzer) classDefs(mi *method, defs []facts.Def, depth int) Classes {
	out := Classes{Complete: len(defs) > 0}
	set := map[*hierarchy.Class]bool{}
	var ev []string
	for _, d := range defs {
		c := a.classDef(mi, d, depth)
		for _, x := range c.Set {
			set[x] = true
		}
		out.Complete = out.Complete && c.Complete
		out.Points = append(out.Points, c.Points...)
		out.dependsOn(c)
		if c.Evidence != "" && !contains(ev, c.Evidence) {
			ev = append(ev, c.Evidence)
		}
	}
	out.Set = sortedClasses(set)
	out.Evidence = strings.Join(ev, "; ")
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (a *Analyzer) classDef(mi *method, d facts.Def, depth int) Classes {
	unknown := func(kind string) Classes {
		return Classes{Points: []Point{a.point(mi, int32(d.N), kind)}}
	}
	outside := func(kind string) Classes {
		return Classes{Points: []Point{beyond(a.point(mi, int32(d.N), kind))}}
	}
	if depth > maxDepth {
		a.depthCuts++
		return unknown("Class object from a deep call chain")
	}
	a.reached(depth)
	switch d.Kind {
	case facts.DefParam:
		if fr, defs, ok := a.boundArg(mi, d.N); ok {
			return withFrame(a, fr.up, func() Classes { return a.classDefs(fr.caller, defs, depth+1) })
		}
		return withFrame(a, nil, func() Classes { return a.classParam(mi, d.N, depth) })
	case facts.DefInstr:
	default:
		return unknown("unknown Class object")
	}
	pc := int32(d.N)
	if n, ok := mi.cls[pc]; ok {
		if c := a.h.Class(n); c != nil && !c.Phantom {
			return Classes{Set: []*hierarchy.Class{c}, Complete: true, Evidence: "class constant " + strings.ReplaceAll(n, "/", ".")}
		}
		return Classes{Complete: true}
	}
	if _, ok := mi.casts[pc]; ok {
		return a.classDefs(mi, mi.operand(pc, 0), depth)
	}
	if fa, ok := mi.fields[pc]; ok && !fa.Write {
		return a.classField(mi, fa, depth)
	}
	if in, ok := mi.opAt(int(pc)); ok && in.Op == bytecode.AconstNull {
		return Classes{Complete: true} // null: no class along this definition
	}
	if c, ok := mi.calls[pc]; ok {
		if LoadingAPI(c) != "" {
			// Loaded starts again from depth 0: its answer does not depend on
			// this depth.
			deepest := a.deepest
			defer func() { a.deepest = deepest }()
			return withFrame(a, nil, func() Classes { return a.Loaded(mi.m, c) })
		}
		if c.Ref.Name == "getClass" && c.Ref.Desc == "()Ljava/lang/Class;" {
			return outside("Object.getClass")
		}
		if c.Ref.Class == "java/lang/Class" && c.Ref.Name == "asSubclass" {
			// c.asSubclass(T) returns c or throws: c's classes within T's subtypes.
			bound := a.classDefs(mi, mi.operand(pc, 1), depth+1)
			recv := a.classDefs(mi, mi.operand(pc, 0), depth+1)
			if !bound.Complete || len(bound.Set) == 0 {
				return recv
			}
			return recv.within(a.Subtypes(bound.Set, false), "asSubclass("+classNames(bound.Set)+")")
		}
		if callees, ok := a.callTargets(mi, c); ok {
			out := Classes{Complete: true}
			set := map[*hierarchy.Class]bool{}
			if callee := calleeReturns(a, mi, c, callees,
				func(cmi *method, defs []facts.Def) Classes { return a.classDefs(cmi, defs, depth+1) },
				func(v Classes) { out.join(v, set) }); callee != nil {
				return outside("Class object returned by " + callee.Name)
			}
			out.Set = sortedClasses(set)
			return out
		}
		return outside("Class object returned by " + shortName(c.Ref.Class) + "." + c.Ref.Name)
	}
	return outside("Class object computed here")
}

// classField reads a Class object from a field: under Correct-String, a followable
// field (private or final) holds only what its nest stores in it.
func (a *Analyzer) classField(mi *method, fa *facts.FieldAccess, depth int) Classes {
	fd := a.resolveField(fa)
	if fd == nil || !a.level.TrustsPrivateState() || !a.followable(fd) {
		return Classes{Points: []Point{beyond(a.point(mi, fa.PC, "Class object in field "+fa.Ref.Class+"."+fa.Ref.Name))}}
	}
	ws := a.fieldWrites(fd)
	if len(ws) == 0 {
		return Classes{Points: []Point{beyond(a.point(mi, fa.PC, "Class object in field "+fd.Class.Name+"."+fd.Name+", never written"))}}
	}
	leave, ok := a.enterField(fd)
	if !ok {
		return Classes{Complete: true}
	}
	defer leave()
	out := Classes{Complete: true}
	set := map[*hierarchy.Class]bool{}
	for _, w := range ws {
		v := withFrame(a, nil, func() Classes { return a.classDefs(w.mi, w.defs, depth+1) })
		out.join(v, set)
	}
	out.Set = sortedClasses(set)
	return out
}

// classParam follows a Class-typed parameter of a non-public method to its callers.
func (a *Analyzer) classParam(mi *method, n int, depth int) Classes {
	m := mi.m
	if !a.closedCallers(m) || (!m.IsStatic() && n == 0) || !a.level.TrustsPrivateState() {
		return Classes{Points: []Point{beyond(Point{Method: m, PC: 0, Line: mi.f.FirstLine, Kind: "parameter of " + m.Name})}}
	}
	callers, ok := a.argSources(m, n)
	if !ok {
		return Classes{Points: []Point{beyond(Point{Method: m, PC: 0, Line: mi.f.FirstLine, Kind: "parameter of " + m.Name + ", which is also called through a method handle or by the JVM"})}}
	}
	out := Classes{Complete: true}
	set := map[*hierarchy.Class]bool{}
	for _, cr := range callers {
		cmi := a.methodInfo(cr.Caller)
		if cmi == nil {
			out.Complete = false
			continue
		}
		v := a.classDefs(cmi, cmi.operand(cmi.f.Calls[cr.Call].PC, n), depth+1)
		for _, x := range v.Set {
			set[x] = true
		}
		out.Complete = out.Complete && v.Complete
		out.Points = append(out.Points, v.Points...)
		out.Evidence = v.Evidence
	}
	out.Set = sortedClasses(set)
	return out
}

// LoadingAPI names the loading API a call uses, or "".
func LoadingAPI(c *facts.Call) string {
	switch {
	case c.Ref.Class == "java/lang/Class" && c.Ref.Name == "forName":
		return "Class.forName"
	case c.Ref.Name == "loadClass" && (c.Ref.Desc == "(Ljava/lang/String;)Ljava/lang/Class;" || c.Ref.Desc == "(Ljava/lang/String;Z)Ljava/lang/Class;" ||
		c.Ref.Desc == "(Ljava/lang/Module;Ljava/lang/String;)Ljava/lang/Class;"):
		return "ClassLoader.loadClass"
	case c.Ref.Class == "java/lang/invoke/MethodHandles$Lookup" && c.Ref.Name == "findClass":
		return "Lookup.findClass"
	}
	return ""
}

// loadingNameOperand is the operand index of the class name of a loading call: after
// the receiver of loadClass/findClass, after the Module of forName(Module, String) and
// of the JDK's loadClass(Module, String) (ClassLoader's, and BootLoader's static one).
func loadingNameOperand(c *facts.Call) int {
	k := 0
	if c.Op != bytecode.Invokestatic {
		k++
	}
	if strings.HasPrefix(c.Ref.Desc, "(Ljava/lang/Module;") {
		k++
	}
	return k
}

// Cast finds the cast that an object created at pc (a newInstance call) meets under
// Correct-Cast: a checkcast, or a Class.cast whose Class object is known, that
// post-dominates the creation with the creation as the only reaching definition of
// its operand, in the method or, when the object is returned, in every caller. It
// returns the cast types.
func (a *Analyzer) Cast(m *hierarchy.Method, pc int32) (types []*hierarchy.Class, evidence string, ok bool) {
	if !a.level.TrustsCasts() {
		return nil, "", false
	}
	mi := a.methodInfo(m)
	if mi == nil {
		return nil, "", false
	}
	set := map[*hierarchy.Class]bool{}
	var ev []string
	if !a.castOf(mi, pc, 0, set, &ev) {
		return nil, "", false
	}
	return sortedClasses(set), strings.Join(ev, "; "), true
}

func (a *Analyzer) castOf(mi *method, pc int32, depth int, set map[*hierarchy.Class]bool, ev *[]string) bool {
	if depth > 3 {
		return false
	}
	only := func(defs []facts.Def) bool {
		return len(defs) == 1 && defs[0].Kind == facts.DefInstr && int32(defs[0].N) == pc
	}
	// In code order: when several casts post-dominate, each holds, and the first
	// one found must not depend on a map's order.
	for _, cpc := range slices.Sorted(maps.Keys(mi.casts)) {
		t := mi.casts[cpc]
		if only(mi.operand(cpc, 0)) && mi.postDominatesNormal(int(cpc), int(pc)) {
			c := a.h.Class(t)
			if c == nil {
				return false
			}
			set[c] = true
			*ev = append(*ev, "cast to "+strings.ReplaceAll(t, "/", ".")+" in "+shortName(mi.m.Class.Name)+"."+mi.m.Name+" line "+itoa(mi.line(cpc)))
			return true
		}
	}
	// type.cast(o) is the same cast to type's classes, when they are known.
	for i := range mi.f.Calls {
		c := &mi.f.Calls[i]
		cpc := c.PC
		if c.Ref.Class != "java/lang/Class" || c.Ref.Name != "cast" || !only(mi.operand(cpc, 1)) || !mi.postDominatesNormal(int(cpc), int(pc)) {
			continue
		}
		types := a.classDefs(mi, mi.operand(cpc, 0), depth)
		if !types.Complete || len(types.Set) == 0 {
			continue
		}
		for _, t := range types.Set {
			set[t] = true
		}
		*ev = append(*ev, "Class.cast to "+classNames(types.Set)+" in "+shortName(mi.m.Class.Name)+"."+mi.m.Name+" line "+itoa(mi.line(cpc)))
		return true
	}
	// Returned: every caller must cast the call's result.
	for _, r := range mi.returns() {
		if !only(mi.operand(int32(r), 0)) || !mi.postDominatesNormal(r, int(pc)) {
			continue
		}
		callers := a.callers(mi.m)
		if len(callers) == 0 || a.hiddenCallers(mi.m) {
			return false
		}
		for _, cr := range callers {
			cmi := a.methodInfo(cr.Caller)
			if cmi == nil || !a.castOf(cmi, cmi.f.Calls[cr.Call].PC, depth+1, set, ev) {
				return false
			}
		}
		return true
	}
	return false
}

// InstantiationsOf finds the newInstance sites that create objects of the classes a
// loading site at pc loads, under Correct-Cast: Class.newInstance on the loaded class
// or Constructor.newInstance on a constructor obtained from it, post-dominating the
// loading site with it as the only definition; following the Class object through
// returns to callers and into private and package-private methods as an argument.
// complete is false when some continuation of the loading site creates no object
// the analysis can see (the Class object escapes to a caller that does not
// instantiate it, or to code called through a method handle): then no cast
// constrains the loaded class.
func (a *Analyzer) InstantiationsOf(m *hierarchy.Method, pc int32) (insts []CallRef, complete bool) {
	mi := a.methodInfo(m)
	if mi == nil {
		return nil, false
	}
	complete = a.instOf(mi, facts.Def{Kind: facts.DefInstr, N: int(pc)}, int(pc), 0, &insts)
	return insts, complete && len(insts) > 0
}

// instOf collects the instantiations from the Class object def and reports whether
// one of them, or a set covering every caller, post-dominates from.
func (a *Analyzer) instOf(mi *method, def facts.Def, from int, depth int, out *[]CallRef) bool {
	if depth > 3 {
		return false
	}
	covered := false
	only := func(defs []facts.Def, d facts.Def) bool { return len(defs) == 1 && defs[0] == d }
	for i := range mi.f.Calls {
		c := &mi.f.Calls[i]
		switch {
		case c.Ref.Class == "java/lang/Class" && c.Ref.Name == "newInstance":
			if only(mi.operand(c.PC, 0), def) && mi.postDominatesNormal(int(c.PC), from) {
				*out = append(*out, CallRef{mi.m, int32(i)})
				covered = true
			}
		case c.Ref.Class == "java/lang/Class" && (c.Ref.Name == "getConstructor" || c.Ref.Name == "getDeclaredConstructor"):
			if only(mi.operand(c.PC, 0), def) && a.instOf(mi, facts.Def{Kind: facts.DefInstr, N: int(c.PC)}, from, depth, out) {
				covered = true
			}
		case c.Ref.Class == "java/lang/reflect/Constructor" && c.Ref.Name == "newInstance":
			if only(mi.operand(c.PC, 0), def) && mi.postDominatesNormal(int(c.PC), from) {
				*out = append(*out, CallRef{mi.m, int32(i)})
				covered = true
			}
		default:
			// The Class object passed to a private or package-private method.
			callee := a.boundTarget(mi, c)
			if callee == nil || !nonPublic(callee) || c.Indy != nil {
				continue
			}
			ops := mi.flow.Operands(int(c.PC))
			for k, o := range ops {
				if only(o, def) && mi.postDominatesNormal(int(c.PC), from) && !a.hiddenCallers(callee) {
					if cmi := a.methodInfo(callee); cmi != nil && a.instOf(cmi, facts.Def{Kind: facts.DefParam, N: k}, 0, depth+1, out) {
						covered = true
					}
				}
			}
		}
	}
	// Returned to callers.
	if def.Kind == facts.DefInstr {
		for _, r := range mi.returns() {
			if !only(mi.operand(int32(r), 0), def) || !mi.postDominatesNormal(r, from) {
				continue
			}
			// Every caller must instantiate what it gets back.
			callers := a.callers(mi.m)
			all := len(callers) > 0 && !a.hiddenCallers(mi.m)
			for _, cr := range callers {
				cmi := a.methodInfo(cr.Caller)
				if cmi == nil {
					all = false
					continue
				}
				cpc := cmi.f.Calls[cr.Call].PC
				if !a.instOf(cmi, facts.Def{Kind: facts.DefInstr, N: int(cpc)}, int(cpc), depth+1, out) {
					all = false
				}
			}
			covered = covered || all
		}
	}
	return covered
}

// Subtypes returns the concrete (or, when all is set, every) subtype of the classes.
func (a *Analyzer) Subtypes(cs []*hierarchy.Class, concreteOnly bool) []*hierarchy.Class {
	set := map[*hierarchy.Class]bool{}
	for _, c := range cs {
		a.h.AllSubtypes(c, func(s *hierarchy.Class) bool {
			if !s.Phantom && (!concreteOnly || !s.IsInterface() && !s.IsAbstract()) {
				set[s] = true
			}
			return true
		})
	}
	out := sortedClasses(set)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Loaded resolves what a loading call may load at the analyzer's level: from
// Correct-Cast on, the casts met by the objects instantiated from the loaded class;
// from Correct-String on, the names reaching it; both intersect.
func (a *Analyzer) Loaded(m *hierarchy.Method, c *facts.Call) Classes {
	k := loadKey{m.ID, c.PC}
	if c, ok := a.loaded[k]; ok {
		if c.busy {
			a.cuts++ // asked again from within: unknown here, and not cached above
		}
		a.reuse(c.q)
		a.readUnset(c.v.Unset)
		return c.v
	}
	a.loaded[k] = cached[Classes]{q: a.origin(), busy: true} // recursion through returns: unknown meanwhile
	cuts := a.cuts
	var cast Classes
	if a.level.TrustsCasts() {
		insts, ok := a.InstantiationsOf(m, c.PC)
		set := map[*hierarchy.Class]bool{}
		var ev []string
		for _, cr := range insts {
			types, e, found := a.Cast(cr.Caller, a.prog.Facts(cr.Caller).Calls[cr.Call].PC)
			if !found {
				ok = false
				break
			}
			for _, t := range types {
				set[t] = true
			}
			if !contains(ev, e) {
				ev = append(ev, e)
			}
		}
		if ok {
			cast = Classes{Set: a.Subtypes(sortedClasses(set), false), Complete: true, Evidence: strings.Join(ev, "; ")}
		}
	}
	names := a.Names(m, c.PC, loadingNameOperand(c))
	var out Classes
	switch {
	case cast.Complete && names.Complete:
		in := map[*hierarchy.Class]bool{}
		for _, x := range cast.Set {
			in[x] = true
		}
		keep := map[*hierarchy.Class]bool{}
		for _, x := range names.Set {
			if in[x] {
				keep[x] = true
			}
		}
		out = Classes{Set: sortedClasses(keep), Complete: true, Evidence: names.Evidence + ", within " + cast.Evidence, Env: names.Env, Unset: names.Unset}
	case cast.Complete:
		out = cast
		out.Points = names.Points
	default:
		out = names
	}
	if a.cuts == cuts {
		a.loaded[k] = cached[Classes]{v: out, q: a.origin()}
	} else {
		delete(a.loaded, k)
	}
	return out
}

type loadKey struct {
	m  int32
	pc int32
}
