package analysis

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// This file holds the reflective APIs of docs/assumption-levels.md (dynamic class loading,
// reflective instantiation, invocation and field access) and the machinery every
// dynamic-site resolver shares: a site first asks the precise resolvers whether it can
// be resolved (siteResolvers: the cast, string and environment analyses of levels 3
// to 5 and the user's specifications plug in there), and otherwise falls back to the
// level's conservative set (fallbackBundles).

// dynamicSite is one call of a dynamic-feature API being resolved, with what to do
// when no precise resolver resolves it.
type dynamicSite struct {
	at      site
	call    *facts.Call
	api     *hierarchy.Method // the resolved API method
	feature callgraph.Feature
	name    string // the API as users read it: "Class.forName"
	noArg   bool   // instantiation through Class.newInstance: no-argument constructors only
	inits   bool   // loading that initialises the loaded class

	reason     callgraph.Reason // of the site's edges; Evidence is set for fallback edges
	own        []siteResolver   // the feature's own resolvers, tried before siteResolvers
	fallback   func() int32     // adds the fallback edges, returns their set or -1; nil for none
	unresolved string           // the site's evidence when it falls back
	levelFree  bool             // the fallback does not depend on the level (Site.Fallback 0)
	// open is an access override that may have reached the site's reflective object,
	// or nil: Encap-Respect does not hold for that object (resolve_access.go).
	open *override
	// shape is what the site passes that its API checks (Method.invoke's and
	// Constructor.newInstance's arguments array of constant length, a null
	// receiver): the API rejects a target that does not accept it.
	shape callShape
	// apply adds the edges of a precise result and returns the set of its targets;
	// nil means applyResult. Sites that only create something (a method handle) and
	// whose calls happen elsewhere record targets without edges.
	apply func(siteResult) int32
}

// siteResult is what a precise resolver found for a dynamic site. Its zero value, with
// status Unresolved, means "nothing": the site keeps its fallback. A resolver that
// cannot resolve a site may still report the specification points it found.
type siteResult struct {
	status   callgraph.Status // Resolved, Partial or Specified when it found targets
	evidence string           // what the targets rest on, for hovers
	points   []callgraph.SpecPoint
	inits    []*hierarchy.Class  // classes whose initialisation the site triggers
	allocs   []*hierarchy.Class  // classes the site instantiates
	methods  []*hierarchy.Method // methods the site calls
	virtual  []virtualCall       // methods the site calls by dispatch on a receiver
	// because gives some of methods an evidence of their own for their edges (the
	// index line that names a container's class), by method ID.
	because map[int32]string
	// ownAccessor: the reflective object is one the JDK made with an accessor of
	// its own (a serialization constructor allocates its class and runs a
	// superclass's constructor, which may be abstract), so the API's checks of
	// the site's shape (keepShape) do not describe its targets.
	ownAccessor bool
}

// virtualCall is a dispatch of method on receivers of type declared (the value recv
// when known); when encap is set, only targets public or encapsulation-safe from
// class encap.
type virtualCall struct {
	declared *hierarchy.Class
	method   *hierarchy.Method
	encap    *hierarchy.Class
	recv     algo.Value
}

// receiver is the value the call dispatches on: recv, or any object of declared.
func (v virtualCall) receiver() algo.Value {
	if v.recv.Type != nil {
		return v.recv
	}
	return algo.Any(v.declared)
}

// keepShape drops from r the methods and constructors that do not accept the site's
// shape (Method.invoke and Constructor.newInstance reject them before calling
// anything), and the classes it creates that no remaining constructor creates.
func (r *siteResult) keepShape(h *hierarchy.Hierarchy, c callShape) {
	r.methods = slices.DeleteFunc(r.methods, func(m *hierarchy.Method) bool { return !c.accepts(h, m) })
	r.virtual = slices.DeleteFunc(r.virtual, func(v virtualCall) bool { return !c.accepts(h, v.method) })
	if len(r.allocs) == 0 {
		return
	}
	made := map[*hierarchy.Class]bool{}
	for _, m := range r.methods {
		if m.Name == "<init>" {
			made[m.Class] = true
		}
	}
	r.allocs = slices.DeleteFunc(r.allocs, func(c *hierarchy.Class) bool { return !made[c] })
}

// merge adds o's targets to r.
func (r *siteResult) merge(o siteResult) {
	r.inits = append(r.inits, o.inits...)
	r.allocs = append(r.allocs, o.allocs...)
	r.methods = append(r.methods, o.methods...)
	r.virtual = append(r.virtual, o.virtual...)
	r.points = append(r.points, o.points...)
}

// siteResolver resolves dynamic sites beyond the conservative rules of levels 1 and 2.
type siteResolver interface {
	// appliesAt reports whether a run at level l licenses what the resolver assumes;
	// it is consulted only in runs where it does.
	appliesAt(l callgraph.Level) bool
	// resolveSite resolves one site. A result with status Unresolved leaves the site
	// to the next resolver and, finally, to the fallback.
	resolveSite(s *solver, d *dynamicSite) siteResult
}

// siteResolvers lists the precise resolvers of reflective sites, most specific first.
// User specifications (every level), cast resolution (level 3), the string analysis
// (level 4) and the environment (level 5) add theirs here; the service configuration
// the class path ships (every level: ServiceLoader's own sites) and the containers'
// index files (Correct-JDK) come after the value analyses, whose results they must
// not widen; so do the JDK's own lambda classes' instantiation, bootstrap method
// calls, the Method.invoke sites its code determines, and the sites with which
// serialization and proxies create objects and call default methods (Correct-JDK).
func siteResolvers() []siteResolver {
	return []siteResolver{specResolver{}, valuesResolver{}, configResolver{}, containerResolver{}, lambdaClassResolver{}, bootstrapResolver{}, jdkInvokeResolver{}, serialProxyResolver{}, jdkLookupResolver{}}
}

// apiState is the per-run state of the API resolvers (reflection, method handles,
// proxies, Unsafe, serialization).
type apiState struct {
	handles     *handleSet             // method handles created anywhere: see resolve_mh.go
	spun        map[string]*spunSupers // by CGLIB flavour: what invokeSuper runs (resolve_spun.go)
	serial      *serialSets            // serialization targets: see resolve_serial.go
	unsafeAlloc map[fallbackKey]bool   // fallback sets whose classes Unsafe.allocateInstance instantiated
	locals      map[int32]*localFlow   // by method ID
	values      *values.Analyzer       // levels 3-5: see resolve_values.go
	spec        *specIndex             // the specification entries: see resolve_spec.go
}

// fallbackLevel is the level whose conservative sets unresolved sites use
// (Level.FallbackLevel).
func (s *solver) fallbackLevel() callgraph.Level {
	return s.opts.Level.FallbackLevel()
}

// resolveSite resolves a dynamic site with the first resolver (the site's own ones,
// then siteResolvers) that finds all its targets, else with the first that finds
// some (a partial result keeps the fallback), else with its fallback, and records
// it.
func (s *solver) resolveSite(d *dynamicSite) {
	first := len(s.bundles)
	if s.env != nil {
		s.env.beginSite(d)
	}
	var res, info siteResult // info: what resolvers that found no targets reported
	for _, p := range append(d.own[:len(d.own):len(d.own)], siteResolvers()...) {
		if !p.appliesAt(s.opts.Level) {
			continue
		}
		r := p.resolveSite(s, d)
		if r.status == callgraph.Partial {
			if res.status == callgraph.Unresolved {
				res = r
			}
			continue
		}
		if r.status != callgraph.Unresolved {
			res = r
			break
		}
		info.points = append(info.points, r.points...)
		if info.evidence == "" {
			info.evidence = r.evidence
		}
	}
	if res.status == callgraph.Unresolved {
		res = info
	} else {
		s.annotateContainer(d, &res)
		if d.shape != (callShape{}) && !res.ownAccessor {
			res.keepShape(s.h, d.shape)
		}
	}
	apply := d.apply
	if apply == nil {
		apply = func(res siteResult) int32 {
			r := d.reason
			r.Evidence = res.evidence
			return s.applyResult(d.at, res, r)
		}
	}
	fallback := d.fallback
	if fallback == nil {
		fallback = func() int32 { return -1 }
	}
	lv := s.fallbackLevel()
	if d.levelFree {
		lv = 0
	}
	st := callgraph.Site{
		Caller: d.at.caller.ID, PC: d.at.pc, Line: d.at.line, Call: d.at.call,
		Feature: d.feature, API: d.name, Status: res.status, Targets: -1, Points: res.points,
	}
	switch res.status {
	case callgraph.Resolved, callgraph.Specified:
		st.Evidence = res.evidence
		st.Targets = apply(res)
	case callgraph.Partial:
		st.Evidence = res.evidence + "; other sources unknown: " + d.unresolved
		st.Targets = apply(res)
		st.Fallback = lv
		fallback()
	default:
		st.Evidence = d.unresolved
		if res.evidence != "" {
			st.Evidence += " (" + res.evidence + ")"
		}
		st.Fallback = lv
		st.Targets = fallback()
	}
	if s.env != nil {
		i := len(s.sites)
		if st.Unset = s.env.endSite(i); st.Unset != nil {
			s.env.sites[i] = d
			s.env.spans[i] = [2]int{first, len(s.bundles)}
		}
	}
	s.sites = append(s.sites, st)
	if s.rep != nil {
		s.rep.edges(len(s.sites)-1, first, len(s.bundles))
	}
}

// applyResult adds the edges of a precise result and returns the set of its targets,
// for the site's hover.
func (s *solver) applyResult(at site, res siteResult, r callgraph.Reason) int32 {
	r.Fallback = 0
	if len(res.methods) > 0 {
		// One bundle with the result's evidence, and one for each evidence of
		// because's.
		ids := make([]int32, 0, len(res.methods))
		var own map[string][]int32
		for _, m := range res.methods {
			if ev := res.because[m.ID]; ev != "" {
				if own == nil {
					own = map[string][]int32{}
				}
				own[ev] = append(own[ev], m.ID)
				continue
			}
			ids = append(ids, m.ID)
		}
		if len(ids) > 0 {
			slices.Sort(ids)
			s.bundle(at, s.addSet(slices.Compact(ids)), s.reason(r), false)
		}
		for _, ev := range slices.Sorted(maps.Keys(own)) {
			rr := r
			rr.Evidence = ev
			ids := own[ev]
			slices.Sort(ids)
			s.bundle(at, s.addSet(slices.Compact(ids)), s.reason(rr), false)
		}
	}
	// No finalizer edges: the fallback sets of reflective instantiation add none
	// either, and a resolved site must stay a subgraph of its fallback.
	for _, c := range res.allocs {
		if concrete(c) {
			s.oracle.Created(algo.DefOf(at.caller, at.pc, c), c)
		}
	}
	for _, c := range res.inits {
		s.initialize(at, c)
	}
	for _, v := range res.virtual {
		if v.method.IsPrivate() || v.method.IsStatic() || (v.method.IsFinal() && !v.method.Class.IsInterface()) {
			s.edge(at, v.method, r)
		} else {
			s.dispatchFrom(at, v.receiver(), v.method, r, v.encap)
		}
	}
	return s.targetSet(at, res)
}

// targetSet returns a set of a result's targets: its methods, the class initialisers
// it runs and the methods its dispatches select, growing with the oracle's answers.
// The set only describes the site; the edges are the bundles applyResult added.
func (s *solver) targetSet(at site, res siteResult) int32 {
	set := s.newSet()
	s.collectTargets(at, res, func(id int32) { s.grow(set, id) })
	return set
}

// collectTargets calls add once for every target of res, now and, for dispatches, as
// the oracle finds more receiver classes.
func (s *solver) collectTargets(at site, res siteResult, add func(int32)) {
	seen := map[int32]bool{}
	once := func(id int32) {
		if !seen[id] {
			seen[id] = true
			add(id)
		}
	}
	for _, m := range res.methods {
		once(m.ID)
	}
	for _, c := range res.inits {
		if at.caller != nil && s.h.IsSubtype(at.caller.Class, c) && !c.IsInterface() {
			continue // as initialize: the caller's own class is initialised already
		}
		for _, id := range s.a.initChain(c) {
			once(id)
		}
	}
	for _, v := range res.virtual {
		if v.method.IsPrivate() || v.method.IsStatic() || (v.method.IsFinal() && !v.method.Class.IsInterface()) {
			once(v.method.ID)
			continue
		}
		m := v.method
		algo.SelectTypes(s.oracle, s.h, v.receiver(), m, func(_ *hierarchy.Class, t *hierarchy.Method) {
			if t != nil && (v.encap == nil || t.IsPublic() || s.h.EncapsulationSafe(v.encap, t)) {
				once(t.ID)
			}
		})
	}
}

// reflectResolver handles the reflective APIs: dynamic class loading, reflective
// instantiation, invocation and field access. At levels 1 and 2 every such site is
// unresolved and uses the level's conservative set; reflection sites inside the JDK
// are sites like any other (they are reachable code).
type reflectResolver struct{}

type reflectKind uint8

const (
	rkLoad       reflectKind = iota // loads a class by name and may initialise it (Class.forName)
	rkLoadOnly                      // loads a class without initialising it
	rkInitialize                    // initialises a given class
	rkNewNoArg                      // Class.newInstance
	rkNew                           // Constructor.newInstance
	rkInvoke                        // Method.invoke
	rkField                         // Field.get*/set*
)

type reflectAPI struct {
	kind reflectKind
	name string
}

var reflectAPIs = func() map[string]reflectAPI {
	m := map[string]reflectAPI{
		"java/lang/Class.forName":                                 {rkLoad, "Class.forName"},
		"java/lang/ClassLoader.loadClass":                         {rkLoadOnly, "ClassLoader.loadClass"},
		"java/lang/invoke/MethodHandles$Lookup.findClass":         {rkLoadOnly, "MethodHandles.Lookup.findClass"},
		"java/lang/invoke/MethodHandles$Lookup.ensureInitialized": {rkInitialize, "MethodHandles.Lookup.ensureInitialized"},
		"java/lang/Class.newInstance":                             {rkNewNoArg, "Class.newInstance"},
		"java/lang/reflect/Constructor.newInstance":               {rkNew, "Constructor.newInstance"},
		"java/lang/reflect/Method.invoke":                         {rkInvoke, "Method.invoke"},
	}
	for _, t := range []string{"", "Boolean", "Byte", "Char", "Short", "Int", "Long", "Float", "Double"} {
		m["java/lang/reflect/Field.get"+t] = reflectAPI{rkField, "Field.get" + t}
		m["java/lang/reflect/Field.set"+t] = reflectAPI{rkField, "Field.set" + t}
	}
	return m
}()

func (reflectResolver) Name() string { return "reflection" }

// returnsCreated: Class.newInstance and Constructor.newInstance return the object
// they create, whose constructor the site's creating bundles name.
func (reflectResolver) returnsCreated(rm *hierarchy.Method) bool {
	api := reflectAPIs[rm.Class.Name+"."+rm.Name]
	return api.kind == rkNew || api.kind == rkNewNoArg
}

func (reflectResolver) APIs() []string {
	out := make([]string, 0, len(reflectAPIs))
	for k := range reflectAPIs {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (reflectResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	api, ok := reflectAPIs[rm.Class.Name+"."+rm.Name]
	if !ok && rm.Name == "loadClass" {
		api, ok = reflectAPIs["java/lang/ClassLoader.loadClass"] // an overriding class loader
	}
	if !ok {
		return
	}
	lv := s.fallbackLevel().Title()
	d := &dynamicSite{at: at, call: c, api: rm, name: api.name,
		reason: callgraph.Reason{Kind: callgraph.KindReflection, Resolver: "reflection"}}
	fallback := func(f callgraph.Feature) func() int32 {
		return func() int32 {
			s.fallbackBundlesShaped(at, f, d.noArg, d.open != nil && !d.open.bounded, d.reason, d.shape)
			s.openedBundle(at, f, d)
			return -1
		}
	}
	switch api.kind {
	case rkLoad, rkLoadOnly:
		d.feature = callgraph.FeatLoading
		d.inits = api.kind == rkLoad && forNameInitialises(s, at, rm)
		if d.inits {
			d.reason.Evidence = api.name + ": the class name is not resolved at " + lv + ", so any class may be loaded and initialised: every <clinit> may run"
			d.fallback = fallback(callgraph.FeatLoading)
		} else {
			what := api.name + " does not"
			switch {
			case strings.HasPrefix(rm.Desc, "(Ljava/lang/Module;"):
				what = api.name + "(Module, String) does not"
			case api.kind == rkLoad:
				what = api.name + " with initialize = false does not"
			}
			d.unresolved = what + " initialise the class it loads: no call edges here (the class is not resolved at " + lv + "; its later use is a site of its own)"
		}
	case rkInitialize:
		d.feature, d.inits = callgraph.FeatLoading, true
		d.reason.Evidence = api.name + ": the class is not a class literal, so every <clinit> may run"
		d.own = []siteResolver{classArgResolver{arg: 1}}
		d.fallback = fallback(callgraph.FeatLoading)
	case rkNewNoArg, rkNew:
		d.feature, d.noArg = callgraph.FeatInstantiation, api.kind == rkNewNoArg
		d.shape.concrete = true
		what := "constructor"
		if d.noArg {
			what = "no-argument constructor"
		}
		if !d.noArg {
			d.open = s.overrideAt(at.caller, at.pc, 0, objCtor)
			what = s.argsCount(d, 1, what)
		}
		switch {
		case !s.fallbackLevel().RespectsEncapsulation():
			d.reason.Evidence = api.name + ": the class is not resolved at Behaved-CLs: any " + what + " may run (and any <clinit>)"
		case d.open != nil && d.open.bounded:
			d.reason.Evidence = api.name + ": the class is not resolved at " + lv + ", and " + voided(d.open, what) + ": any public " + what + ", one accessible from this class, or one it opens, may run (and any <clinit>)"
		case d.open != nil:
			d.reason.Evidence = api.name + ": the class is not resolved at " + lv + ", and " + voided(d.open, what) + ": any " + what + " may run (and any <clinit>)"
		default:
			d.reason.Evidence = api.name + ": the class is not resolved at " + lv + ": any public " + what + ", or one accessible from this class, may run (and any <clinit>)"
		}
		d.fallback = fallback(callgraph.FeatInstantiation)
	case rkInvoke:
		d.feature = callgraph.FeatInvocation
		d.open = s.overrideAt(at.caller, at.pc, 0, objMethod)
		method := s.argsCount(d, 2, "method")
		if s.nullReceiver(d) {
			d.shape.static = true
			method = "static " + method + " (the receiver is null)"
		} else if t := s.proxiedReceiver(d); t != nil {
			d.shape.recv = t.ID + 1
			method = "instance " + method + " of a " + strings.ReplaceAll(t.Name, "/", ".") + " (a proxy's handler is given an interface's method)"
		}
		switch {
		case !s.fallbackLevel().RespectsEncapsulation():
			d.reason.Evidence = api.name + ": the method is not resolved at Behaved-CLs: any concrete " + method + " may be called (and any <clinit>)"
		case d.open != nil && d.open.bounded:
			d.reason.Evidence = api.name + ": the method is not resolved at " + lv + ", and " + voided(d.open, "method") + ": any public " + method + ", one accessible from this class, or one it opens, may be called (and any <clinit>)"
		case d.open != nil:
			d.reason.Evidence = api.name + ": the method is not resolved at " + lv + ", and " + voided(d.open, "method") + ": any concrete " + method + " may be called (and any <clinit>)"
		default:
			d.reason.Evidence = api.name + ": the method is not resolved at " + lv + ": any public " + method + ", or one accessible from this class, may be called (and any <clinit>)"
		}
		d.fallback = fallback(callgraph.FeatInvocation)
	case rkField:
		d.feature = callgraph.FeatFieldAccess
		d.unresolved = api.name + ": reflective field access: no call edges (the field is not resolved at " + lv + ")"
	}
	if d.unresolved == "" {
		d.unresolved = d.reason.Evidence
	}
	s.resolveSite(d)
}

// forNameInitialises reports whether a Class.forName call may initialise the class:
// forName(String) does, forName(String, boolean, ClassLoader) unless the boolean is the
// constant false, forName(Module, String) never does. ClassLoader.loadClass and
// Lookup.findClass never initialise (they are rkLoadOnly).
func forNameInitialises(s *solver, at site, rm *hierarchy.Method) bool {
	switch {
	case strings.HasPrefix(rm.Desc, "(Ljava/lang/Module;"):
		return false
	case strings.HasPrefix(rm.Desc, "(Ljava/lang/String;Z"):
		lf := s.localFlow(at.caller)
		if lf == nil {
			return true
		}
		ops := lf.operands(at.pc)
		if len(ops) < 2 {
			return true
		}
		return !lf.allIconst0(ops[1])
	}
	return true
}

// classArgResolver resolves a site whose argument arg (counting the receiver of an
// instance method as 0) is a Class given by class literals: the site initialises
// those classes and, when instantiates is set, creates instances of them. Class
// literals name their class whatever the level assumes, so it serves every level.
type classArgResolver struct {
	arg          int
	instantiates bool
}

func (classArgResolver) appliesAt(callgraph.Level) bool { return true }

func (p classArgResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	lf, defs := s.siteOperand(d, p.arg)
	if lf == nil {
		return siteResult{}
	}
	types, ok := lf.constTypes(defs)
	if !ok {
		return siteResult{}
	}
	var res siteResult
	var names []string
	for _, t := range types {
		names = append(names, typeName(t))
		c := s.h.Class(className(t))
		if c == nil || c.Phantom {
			continue // a primitive or array type, or a class the program lacks: nothing runs
		}
		res.inits = append(res.inits, c)
		if p.instantiates {
			res.allocs = append(res.allocs, c)
		}
	}
	what := " initialises "
	if p.instantiates {
		what = " instantiates, without a constructor, "
	}
	res.status = callgraph.Resolved
	res.evidence = d.name + what + "a class literal: " + strings.Join(names, ", ")
	return res
}

// localFlow gives resolvers intraprocedural access to where a call's operands come
// from: the method's facts and its def-use flow.
type localFlow struct {
	h  *hierarchy.Hierarchy
	m  *hierarchy.Method
	f  *facts.Method
	fl *facts.Flow
}

// localFlow returns the flow of m, computed once per run (the index caches the
// analysis itself), or nil when m has no analysable code.
func (s *solver) localFlow(m *hierarchy.Method) *localFlow {
	if m == nil {
		return nil
	}
	if lf, ok := s.api.locals[m.ID]; ok {
		return lf
	}
	var lf *localFlow
	if f := s.a.prog.Facts(m); f != nil {
		if fl, err := s.a.prog.Flow(m); err == nil && fl != nil {
			lf = &localFlow{h: s.h, m: m, f: f, fl: fl}
		}
	}
	if s.api.locals == nil {
		s.api.locals = map[int32]*localFlow{}
	}
	s.api.locals[m.ID] = lf
	return lf
}

func (lf *localFlow) operands(pc int32) [][]facts.Def { return lf.fl.Operands(int(pc)) }

// siteOperand returns the caller's flow and the definitions of operand arg of a
// dynamic site (the receiver of an instance method is operand 0); nil when the
// caller has no analysable code or the operand does not exist.
func (s *solver) siteOperand(d *dynamicSite, arg int) (*localFlow, []facts.Def) {
	lf := s.localFlow(d.at.caller)
	if lf == nil {
		return nil, nil
	}
	ops := lf.operands(d.at.pc)
	if arg >= len(ops) {
		return nil, nil
	}
	return lf, ops[arg]
}

// at finds the fact at pc in a list sorted by pc.
func at[T any](list []T, pc int, pcOf func(*T) int32) *T {
	i, ok := slices.BinarySearchFunc(list, pc, func(x T, pc int) int { return int(pcOf(&x)) - pc })
	if !ok {
		return nil
	}
	return &list[i]
}

func (lf *localFlow) callAt(pc int) *facts.Call {
	return at(lf.f.Calls, pc, func(c *facts.Call) int32 { return c.PC })
}

func (lf *localFlow) allocAt(pc int) *facts.Alloc {
	return at(lf.f.Allocs, pc, func(a *facts.Alloc) int32 { return a.PC })
}

func (lf *localFlow) checkAt(pc int) *facts.TypeCheck {
	return at(lf.f.TypeChecks, pc, func(c *facts.TypeCheck) int32 { return c.PC })
}

func (lf *localFlow) fieldAt(pc int) *facts.FieldAccess {
	return at(lf.f.Fields, pc, func(f *facts.FieldAccess) int32 { return f.PC })
}

func (lf *localFlow) classConstAt(pc int) *facts.Const {
	return at(lf.f.ClassConsts, pc, func(c *facts.Const) int32 { return c.PC })
}

func (lf *localFlow) stringConstAt(pc int) *facts.Const {
	return at(lf.f.StringConsts, pc, func(c *facts.Const) int32 { return c.PC })
}

// primitiveTypes maps the wrapper classes whose TYPE field holds a primitive's Class
// (int.class compiles to getstatic java/lang/Integer.TYPE) to the descriptor.
var primitiveTypes = map[string]string{
	"java/lang/Boolean": "Z", "java/lang/Byte": "B", "java/lang/Character": "C",
	"java/lang/Short": "S", "java/lang/Integer": "I", "java/lang/Long": "J",
	"java/lang/Float": "F", "java/lang/Double": "D", "java/lang/Void": "V",
}

// constTypes returns the field descriptors of the classes a Class value may be when
// every definition of it is a class literal (ldc, or getstatic of a wrapper's TYPE for
// a primitive); ok is false otherwise.
func (lf *localFlow) constTypes(defs []facts.Def) (descs []string, ok bool) {
	for _, d := range defs {
		if d.Kind != facts.DefInstr {
			return nil, false
		}
		if c := lf.classConstAt(d.N); c != nil {
			if strings.HasPrefix(c.Value, "[") {
				descs = append(descs, c.Value)
			} else {
				descs = append(descs, "L"+c.Value+";")
			}
			continue
		}
		if f := lf.fieldAt(d.N); f != nil && f.Static && !f.Write && f.Ref.Name == "TYPE" && primitiveTypes[f.Ref.Class] != "" {
			descs = append(descs, primitiveTypes[f.Ref.Class])
			continue
		}
		return nil, false
	}
	return descs, len(descs) > 0
}

// constStrings returns the strings a value may be when every definition of it is a
// string literal.
func (lf *localFlow) constStrings(defs []facts.Def) (strs []string, ok bool) {
	for _, d := range defs {
		if d.Kind != facts.DefInstr {
			return nil, false
		}
		c := lf.stringConstAt(d.N)
		if c == nil {
			return nil, false
		}
		strs = append(strs, c.Value)
	}
	return strs, len(strs) > 0
}

// allIconst0 reports whether every definition of an int value is iconst_0 (false).
// arrayLength returns the length of the array every definition in defs creates: an
// anewarray whose count is a constant, or null (which Method.invoke and
// Constructor.newInstance take as no arguments); ok is false otherwise.
func (lf *localFlow) arrayLength(defs []facts.Def) (n int32, ok bool) {
	code, err := lf.h.Info(lf.m).Code()
	if err != nil || code == nil || len(defs) == 0 {
		return 0, false
	}
	n = -1
	for _, d := range defs {
		if d.Kind != facts.DefInstr || d.N < 0 || d.N >= len(code.Bytecode) {
			return 0, false
		}
		var k int32
		switch bytecode.Opcode(code.Bytecode[d.N]) {
		case bytecode.AconstNull:
			k = 0
		case bytecode.Anewarray:
			ops := lf.operands(int32(d.N))
			if len(ops) != 1 {
				return 0, false
			}
			if k, ok = lf.intConst(ops[0]); !ok {
				return 0, false
			}
		default:
			return 0, false
		}
		if n >= 0 && k != n {
			return 0, false
		}
		n = k
	}
	return n, n >= 0
}

// isOp reports whether def is an instruction with the opcode op.
func (lf *localFlow) isOp(def facts.Def, op bytecode.Opcode) bool {
	code, err := lf.h.Info(lf.m).Code()
	return err == nil && code != nil && def.Kind == facts.DefInstr && def.N >= 0 && def.N < len(code.Bytecode) &&
		bytecode.Opcode(code.Bytecode[def.N]) == op
}

// intConst returns the int constant (iconst, bipush or sipush) that the only
// definition in defs pushes.
func (lf *localFlow) intConst(defs []facts.Def) (int32, bool) {
	code, err := lf.h.Info(lf.m).Code()
	if err != nil || code == nil || len(defs) != 1 || defs[0].Kind != facts.DefInstr {
		return 0, false
	}
	in, err := bytecode.Decode(code.Bytecode, defs[0].N)
	if err != nil {
		return 0, false
	}
	switch in.Op {
	case bytecode.Iconst0, bytecode.Iconst1, bytecode.Iconst2, bytecode.Iconst3, bytecode.Iconst4, bytecode.Iconst5, bytecode.Bipush, bytecode.Sipush:
		return in.Value, true
	}
	return 0, false
}

// argClasses returns, for the first elements of the arguments array that operand k
// of the call at pc passes, the class each is an instance of when it is not null
// (nil when not known). It knows them when every definition of the array is an
// anewarray used only to be stored into at constant indices and to be passed there,
// and every store at an index has a value of one declared class. Interfaces and
// Object say nothing about a parameter, and are left out.
func (lf *localFlow) argClasses(pc int32, k int) (out [shapedArgs]*hierarchy.Class) {
	ops := lf.operands(pc)
	if len(ops) <= k || len(ops[k]) == 0 {
		return out
	}
	var stored [shapedArgs][]string
	for _, def := range ops[k] {
		if !lf.isOp(def, bytecode.Anewarray) {
			return out
		}
		ok := lf.eachUse(def, func(at int, op bytecode.Opcode, _ *facts.Call, n int, operand func(int) []facts.Def) bool {
			switch {
			case at == int(pc) && n == k:
				return true
			case op != bytecode.Aastore || n != 0:
				return false
			}
			i, ok := lf.intConst(operand(1))
			if ok && i >= 0 && i < shapedArgs {
				stored[i] = append(stored[i], lf.declaredType(operand(2)))
			}
			return ok
		})
		if !ok {
			return out
		}
	}
	for i, names := range stored {
		if len(names) == 0 || slices.Contains(names, "") || slices.ContainsFunc(names, func(n string) bool { return n != names[0] }) {
			continue
		}
		if c := lf.h.Class(names[0]); c != nil && !c.Phantom && !c.IsInterface() && c.Super != nil {
			out[i] = c
		}
	}
	return out
}

// moves reports whether op only moves or drops values (the flow follows a value
// through locals and the stack).
func moves(op bytecode.Opcode) bool {
	switch op {
	case bytecode.Astore, bytecode.Astore0, bytecode.Astore1, bytecode.Astore2, bytecode.Astore3,
		bytecode.Pop, bytecode.Pop2, bytecode.Dup, bytecode.DupX1, bytecode.DupX2,
		bytecode.Dup2, bytecode.Dup2X1, bytecode.Dup2X2, bytecode.Swap:
		return true
	}
	return false
}

func (lf *localFlow) allIconst0(defs []facts.Def) bool {
	code, err := lf.h.Info(lf.m).Code()
	if err != nil || code == nil {
		return false
	}
	for _, d := range defs {
		if d.Kind != facts.DefInstr || d.N < 0 || d.N >= len(code.Bytecode) || bytecode.Opcode(code.Bytecode[d.N]) != bytecode.Iconst0 {
			return false
		}
	}
	return len(defs) > 0
}

// className returns the class name of a field descriptor of a class type, or "".
func className(desc string) string {
	if len(desc) > 2 && desc[0] == 'L' && desc[len(desc)-1] == ';' {
		return desc[1 : len(desc)-1]
	}
	return ""
}

// typeName renders a field descriptor as Java source would name the type.
func typeName(desc string) string {
	dims := 0
	for dims < len(desc) && desc[dims] == '[' {
		dims++
	}
	var base string
	switch t := desc[dims:]; t {
	case "Z":
		base = "boolean"
	case "B":
		base = "byte"
	case "C":
		base = "char"
	case "S":
		base = "short"
	case "I":
		base = "int"
	case "J":
		base = "long"
	case "F":
		base = "float"
	case "D":
		base = "double"
	case "V":
		base = "void"
	default:
		base = strings.ReplaceAll(className(t), "/", ".")
		if base == "" {
			base = t
		}
	}
	return base + strings.Repeat("[]", dims)
}

// argsCount sets d.args from the length of the arguments array in operand k of the
// site, when every definition makes an array of one constant length, and returns
// what (method, constructor) qualified by it for the site's evidence.
func (s *solver) argsCount(d *dynamicSite, k int, what string) string {
	lf := s.localFlow(d.at.caller)
	if lf == nil {
		return what
	}
	ops := lf.operands(d.at.pc)
	if len(ops) <= k {
		return what
	}
	n, ok := lf.arrayLength(ops[k])
	if !ok || n > 255 {
		return what
	}
	d.shape.args = int16(n) + 1
	switch n {
	case 0:
		return what + " without parameters (the arguments array is empty)"
	case 1:
		what += " with one parameter (the arguments array has one element)"
	default:
		what = fmt.Sprintf("%s with %d parameters (the arguments array has %d elements)", what, n, n)
	}
	var took []string
	for i, c := range lf.argClasses(d.at.pc, k) {
		if c != nil && i < int(n) {
			d.shape.argClass[i] = c.ID + 1
			took = append(took, fmt.Sprintf("argument %d a %s", i+1, strings.ReplaceAll(c.Name, "/", ".")))
		}
	}
	if len(took) > 0 {
		what += " that takes the arguments' classes (" + strings.Join(took, ", ") + ")"
	}
	return what
}

// nullReceiver reports whether the receiver of a Method.invoke site (operand 1) is
// the null constant on every path.
func (s *solver) nullReceiver(d *dynamicSite) bool {
	lf := s.localFlow(d.at.caller)
	if lf == nil {
		return false
	}
	ops := lf.operands(d.at.pc)
	if len(ops) < 2 || len(ops[1]) == 0 {
		return false
	}
	code, err := lf.h.Info(lf.m).Code()
	if err != nil || code == nil {
		return false
	}
	for _, def := range ops[1] {
		if def.Kind != facts.DefInstr || def.N < 0 || def.N >= len(code.Bytecode) || bytecode.Opcode(code.Bytecode[def.N]) != bytecode.AconstNull {
			return false
		}
	}
	return true
}
