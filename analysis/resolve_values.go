package analysis

import (
	"maps"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// valuesResolver resolves reflective sites with the cast analysis (Correct-Cast) and
// the string analysis (Correct-String, Correct-Env) of package values: loading sites
// to the classes they load, instantiation sites to the constructors of the classes
// they create, and Method.invoke sites to the methods of resolved classes.
type valuesResolver struct{}

func (valuesResolver) appliesAt(l callgraph.Level) bool { return l.TrustsCasts() }

// values returns the run's value analyzer.
func (s *solver) values() *values.Analyzer {
	if s.api.values == nil {
		s.api.values = values.New(s.a.prog, s.a.valuesIndex(), s.opts.Level, s.environment())
		s.api.values.Observe(s.reads)
	}
	return s.api.values
}

func (a *Analyzer) valuesIndex() *values.Index {
	a.valuesOnce.Do(func() { a.vindex = values.NewIndex(a.prog) })
	return a.vindex
}

// Inherit gives a, whose hierarchy shares prev's classes and methods (an edit of
// the bodies of the classes named in changed: hierarchy.WithBodies), what prev
// computed that such an edit cannot change, so that a's first run does not
// compute it again: the plans of the other classes' methods, the resolvers of
// API methods, CHA's dispatch, the initialisation chains, the conservative
// fallback sets (all from the hierarchy alone), the value index
// (inheritValuesIndex), the JDK model with its evidence strings (inheritModel) and
// the JDK's access overrides.
// After an edit that added or removed classes or members (another hierarchy), it
// gives what the IDs can be moved for (inheritAcross). It must be called before
// a's first run.
func (a *Analyzer) Inherit(prev *Analyzer, changed []string) {
	if prev == nil {
		return
	}
	if !a.h.SameClasses(prev.h) {
		a.inheritAcross(prev, changed)
		return
	}
	edited := map[int32]bool{}
	for _, n := range changed {
		if c := a.h.Class(n); c != nil {
			edited[c.ID] = true
		}
	}
	prev.mu.Lock()
	apiCache, apiLists := maps.Clone(prev.apiCache), slices.Clone(prev.apiLists)
	cha, chains, fallbacks := maps.Clone(prev.chaDispatch), maps.Clone(prev.initChains), maps.Clone(prev.fallbacks)
	prev.mu.Unlock()
	a.mu.Lock()
	a.apiCache, a.apiLists = apiCache, apiLists
	a.chaDispatch, a.initChains, a.fallbacks = cha, chains, fallbacks
	a.mu.Unlock()
	// Plans hold IDs and indexes into apiLists, which a now extends.
	for i, m := range a.h.Methods() {
		if !edited[m.Class.ID] {
			if p := prev.plans[i].Load(); p != nil {
				a.plans[i].CompareAndSwap(nil, p)
			}
		}
	}
	a.inheritValuesIndex(prev, changed)
	a.inheritModel(prev, nil)
	a.inheritJDKOverrides(prev)
}

// inheritValuesIndex gives a, whose program has prev's classes and differs in the
// code of the changed ones only, what prev's value index already knows of the
// other classes (values.NewIndexAfter), unless a's index exists already.
func (a *Analyzer) inheritValuesIndex(prev *Analyzer, changed []string) {
	a.valuesOnce.Do(func() {
		var ids []int32
		for _, n := range changed {
			if c := a.h.Class(n); c != nil {
				ids = append(ids, c.ID)
			}
		}
		a.vindex = values.NewIndexAfter(a.prog, prev.valuesIndex(), ids)
	})
}

func specPoints(ps []values.Point) []callgraph.SpecPoint {
	var out []callgraph.SpecPoint
	seen := map[callgraph.SpecPoint]bool{}
	for _, p := range ps {
		if p.Method == nil {
			continue
		}
		sp := callgraph.SpecPoint{Method: p.Method.ID, PC: p.PC, Line: p.Line, Kind: p.Kind, Beyond: p.Beyond}
		if !seen[sp] {
			seen[sp] = true
			out = append(out, sp)
		}
	}
	return out
}

func (valuesResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	m, c := d.at.caller, d.call
	if m == nil || c == nil {
		return siteResult{}
	}
	va := s.values()
	s.reads.reader = m.ID
	switch d.feature {
	case callgraph.FeatLoading:
		var cls values.Classes
		switch {
		case values.LoadingAPI(c) != "":
			cls = va.Loaded(m, c)
		case d.inits && d.api != nil && !d.api.IsStatic() && strings.HasPrefix(d.api.Desc, "(Ljava/lang/Class;)"):
			// Lookup.ensureInitialized(Class), Unsafe.ensureClassInitialized(Class):
			// the classes of the Class object, followed like newInstance's receiver.
			cls = va.ClassOperand(m, c.PC, 1)
		default:
			return siteResult{}
		}
		if !cls.Complete {
			return siteResult{points: specPoints(cls.Points)}
		}
		res := siteResult{status: callgraph.Resolved, evidence: envNote(cls.Evidence, cls.Env)}
		if d.inits {
			res.inits = cls.Set
		}
		return res
	case callgraph.FeatInstantiation:
		return s.resolveInstantiation(va, d)
	case callgraph.FeatInvocation:
		if deserializesLambda(m) {
			return siteResult{} // the JDK model's (jdkInvokeResolver)
		}
		shapes, points, ok := va.Invocation(m, c.PC)
		if !ok {
			return siteResult{points: specPoints(points)}
		}
		var ev []string
		res := siteResult{status: callgraph.Resolved}
		for _, sh := range shapes {
			if !containsString(ev, sh.Evidence) {
				ev = append(ev, sh.Evidence)
			}
			if !sh.Classes.Complete {
				res.methods = append(res.methods, s.a.namedMethods(m.Class, sh, d.open)...)
				continue
			}
			for _, cl := range sh.Classes.Set {
				res.virtual = append(res.virtual, s.invocable(m.Class, cl, sh.Names, sh.Params, d.open)...)
			}
		}
		res.evidence = "Method.invoke: " + strings.Join(ev, "; ")
		if d.open != nil {
			res.evidence += "; " + voidedMembers(d.open, "method")
		}
		return res
	case callgraph.FeatFieldAccess:
		// A field access has no call edges: resolved, the site names its fields.
		fields, ev, points, ok := va.FieldAccess(m, c.PC)
		if !ok {
			return siteResult{points: specPoints(points)}
		}
		names := make([]string, 0, len(fields))
		for _, f := range fields {
			names = append(names, strings.ReplaceAll(f.Class.Name, "/", ".")+"."+f.Name)
		}
		what := "no such field"
		if len(names) > 0 {
			what = "field " + strings.Join(names, ", ")
		}
		return siteResult{status: callgraph.Resolved, evidence: d.name + ": " + what + " (" + ev + "); no call edges"}
	}
	return siteResult{}
}

// constructorSource is the specification point of a Constructor object that does not
// come from getConstructor or getDeclaredConstructor in the method itself. Only a
// parameter of a method others cannot call is a source the level licenses (and
// the analysis does not follow); a method's result, an array element or a field are
// not followed.
func constructorSource(m *hierarchy.Method, pc int32, def facts.Def, g *facts.Call) values.Point {
	switch {
	case def.Kind == facts.DefParam:
		return values.Point{Method: m, PC: pc, Line: -1, Kind: "Constructor object in a parameter of " + m.Name,
			Beyond: m.IsPublic() || m.Access&0x0004 != 0}
	case g != nil:
		return values.Point{Method: m, PC: g.PC, Line: -1, Kind: "Constructor object returned by " + g.Ref.Name, Beyond: true}
	}
	return values.Point{Method: m, PC: pc, Line: -1, Kind: "Constructor object computed here", Beyond: true}
}

func envNote(ev string, env bool) string {
	if env {
		return ev + " — sound only for the configured environment (Correct-Env)"
	}
	return ev
}

// resolveInstantiation resolves Class.newInstance and Constructor.newInstance: the
// classes of the Class object (constants, resolved loading sites) intersected with
// the cast the created object meets.
func (s *solver) resolveInstantiation(va *values.Analyzer, d *dynamicSite) siteResult {
	m, c := d.at.caller, d.call
	var cls values.Classes
	if c.Ref.Class == "java/lang/Class" {
		cls = va.ClassOperand(m, c.PC, 0)
	} else if lf := s.localFlow(m); lf != nil {
		// The Constructor comes from getConstructor/getDeclaredConstructor on a Class.
		ops := lf.operands(c.PC)
		if len(ops) > 0 {
			cls.Complete = len(ops[0]) > 0
			set := map[*hierarchy.Class]bool{}
			for _, def := range ops[0] {
				g := (*facts.Call)(nil)
				if def.Kind == facts.DefInstr {
					g = lf.callAt(def.N)
				}
				if g == nil || g.Ref.Class != "java/lang/Class" || !strings.Contains(g.Ref.Name, "Constructor") {
					cls.Complete = false
					cls.Points = append(cls.Points, constructorSource(m, c.PC, def, g))
					break
				}
				v := va.ClassOperand(m, g.PC, 0)
				cls.Complete = cls.Complete && v.Complete
				cls.Points = append(cls.Points, v.Points...)
				cls.Evidence = v.Evidence
				cls.Env = cls.Env || v.Env
				for _, x := range v.Set {
					set[x] = true
				}
			}
			for x := range set {
				cls.Set = append(cls.Set, x)
			}
		}
	}
	types, castEv, castOK := va.Cast(m, c.PC)
	var set []*hierarchy.Class
	var ev string
	switch {
	case cls.Complete && castOK:
		in := map[*hierarchy.Class]bool{}
		for _, t := range va.Subtypes(types, true) {
			in[t] = true
		}
		for _, x := range cls.Set {
			if in[x] {
				set = append(set, x)
			}
		}
		ev = cls.Evidence + ", within " + castEv
	case cls.Complete:
		set, ev = cls.Set, cls.Evidence
	case castOK:
		set, ev = va.Subtypes(types, true), castEv
	default:
		return siteResult{points: specPoints(cls.Points)}
	}
	res := siteResult{status: callgraph.Resolved, evidence: d.name + ": " + envNote(ev, cls.Env)}
	if d.open != nil {
		res.evidence += "; " + voidedMembers(d.open, "constructor")
	}
	for _, x := range set {
		if !concrete(x) {
			continue
		}
		res.allocs = append(res.allocs, x)
		res.inits = append(res.inits, x)
		for _, ctor := range x.Methods {
			// Encap-Respect still holds: only constructors its sets allow.
			safe := ctor.IsPublic() || d.open.opens(ctor) || (s.opts.Level.RespectsEncapsulation() && s.h.EncapsulationSafeConstructor(m.Class, ctor))
			if ctor.Name == "<init>" && (!d.noArg || ctor.Desc == "()V") && safe {
				res.methods = append(res.methods, ctor)
			}
		}
	}
	return res
}

// invocable returns the dispatches of the methods that Method.invoke may call on a
// method obtained from class c: those declared in or inherited by c, concrete or not
// (the receiver's class selects the implementation), encapsulation-safe from the
// calling class or opened by an access override that may have reached the Method
// (open, which may be nil), named in names when names is not nil, and with the
// parameter descriptors params ("(I)"; "" for any).
func (s *solver) invocable(from, c *hierarchy.Class, names []string, params string, open *override) []virtualCall {
	var out []virtualCall
	eachInvocable(s.h, c, names, params, func(m *hierarchy.Method) {
		switch {
		case open.opens(m):
			out = append(out, virtualCall{declared: c, method: m})
		case s.h.EncapsulationSafe(from, m):
			out = append(out, virtualCall{declared: c, method: m, encap: from})
		}
	})
	return out
}

// eachInvocable calls fn with each method Method.invoke may call on a method
// obtained from class c (invocable), whatever its access.
func eachInvocable(h *hierarchy.Hierarchy, c *hierarchy.Class, names []string, params string, fn func(*hierarchy.Method)) {
	seen := map[string]bool{}
	h.Supertypes(c, func(sc *hierarchy.Class) bool {
		for _, m := range sc.Methods {
			if m.Name == "<init>" || m.Name == "<clinit>" || seen[m.Name+m.Desc] {
				continue
			}
			if names != nil && !containsString(names, m.Name) || !strings.HasPrefix(m.Desc, params) {
				continue
			}
			seen[m.Name+m.Desc] = true
			fn(m)
		}
		return true
	})
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// namedMethods returns the methods Method.invoke may call on a Method object whose
// class is unknown but whose names are known (Correct-String): every concrete method
// of the program with one of the names (and the parameter types, when known), since
// the method getMethod finds and every override invoke may dispatch to share them.
// getMethod finds only public methods, and overrides of public methods are public;
// getDeclaredMethod finds any, of which Encap-Respect keeps those safe from the
// calling class, and those an access override that may have reached the Method
// opened (open, which may be nil). The result is within the site's fallback.
func (a *Analyzer) namedMethods(from *hierarchy.Class, sh values.MethodShape, open *override) []*hierarchy.Method {
	var out []*hierarchy.Method
	for _, name := range sh.Names {
		for _, m := range a.valuesIndex().MethodsNamed(name) {
			if m.IsAbstract() || !strings.HasPrefix(m.Desc, sh.Params) {
				continue
			}
			if m.IsPublic() || sh.Declared && (open.opens(m) || a.h.EncapsulationSafe(from, m)) {
				out = append(out, m)
			}
		}
	}
	return out
}
