package analysis

import (
	"cmp"
	"context"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/jdkmodel"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// site names the instruction an edge comes from.
type site struct {
	caller *hierarchy.Method // nil for the synthetic NativeMethod node
	pc     int32             // -1 when no instruction is involved
	line   int32
	call   int32 // index into the caller's facts.Calls, or -1
}

// dispatchKey identifies a virtual dispatch: a resolved method on a declared type,
// restricted (encap > 0) to the targets encapsulation-safe from class encap-1.
type dispatchKey struct{ method, declared, encap int32 }

// valueGroupKey identifies a dispatch on receivers of a scope of the oracle's.
type valueGroupKey struct {
	dispatchKey
	scope algo.Value
}

// group gathers the call sites of one virtual dispatch so the targets are computed
// once and shared by every site through one target set.
type group struct {
	key       dispatchKey
	rm        *hierarchy.Method
	declared  *hierarchy.Class
	value     algo.Value     // the oracle's scope of the receivers: their declared type under CHA and RTA
	set       int32          // target set, grows with the oracle's answers
	members   map[int32]bool // the set's members, once it is large (addMember)
	sites     []site
	lambdaSet int32                        // targets through lambdas, -1 until a lambda matches
	keep      func(*hierarchy.Method) bool // nil, or the targets the group may have
	defaults  map[int32]bool               // lambda interfaces already matched for inherited default methods
	// lambdaSites, when not nil, are the invokedynamic instructions that created
	// the lambdas the oracle finds in the receivers (algo.LambdaFollower): only
	// those lambdas match. nil matches every lambda of a fitting interface.
	lambdaSites map[siteKey]bool
}

// siteKey is an instruction: its method's ID and pc.
type siteKey struct{ m, pc int32 }

// addMember records id as a member of the group, whose set is set, and reports
// whether it is new. A small group (most are: TFA has one per receiver) looks in
// its set; a large one keeps a map.
func (g *group) addMember(set []int32, id int32) bool {
	if g.members != nil {
		if g.members[id] {
			return false
		}
		g.members[id] = true
		return true
	}
	if slices.Contains(set, id) {
		return false
	}
	if len(set) >= 16 {
		g.members = make(map[int32]bool, 2*len(set))
		for _, x := range set {
			g.members[x] = true
		}
		g.members[id] = true
	}
	return true
}

// solver is the working state of one run.
type solver struct {
	ctx    context.Context
	a      *Analyzer
	h      *hierarchy.Hierarchy
	opts   Options
	oracle algo.Oracle
	access accessRun // the access overrides reached: resolve_access.go
	env    *envRun   // Correct-Env's system properties: resolve_env.go; nil below
	// The classes of the objects the JVM makes for literals (nil when the class
	// path lacks them).
	stringClass, classClass *hierarchy.Class
	// fl is the oracle when it follows values (algo.Follower), else nil; linked
	// marks, by set, the sets it was told of (Calls), whose members it hears of.
	fl     algo.Follower
	linked []bool

	methods []*hierarchy.Method
	native  int32 // node ID of NativeMethod
	reach   callgraph.Bitset
	work    []int32 // methods to visit
	early   []int32 // methods to visit before any of work (next)
	entries []int32

	bundles   []callgraph.Bundle
	sets      [][]int32
	live      []bool // by set: members are reachable
	instSet   []bool // by set: members' classes were instantiated
	single    map[int32]int32
	fallback  map[fallbackKey]int32 // fallback key -> set index in this run
	reasons   []callgraph.Reason
	reasonIdx map[callgraph.Reason]int32
	sites     []callgraph.Site

	inited []bool                 // by class ID: initialisation already triggered from somewhere
	groups map[dispatchKey]*group // restricted (encap) groups
	// valueGroups are the groups of oracles whose answers depend on more than the
	// declared type (algo.Oracle.Scope).
	valueGroups map[valueGroupKey]*group
	plain       map[uint64]*group   // unrestricted groups by method<<32|declared
	byName      map[string][]*group // groups by method name, for lambdas
	lambdas     map[string][]*lambda
	// Lambda interfaces seen, and dispatch groups on interfaces: a lambda's class
	// inherits its interfaces' default methods (matchDefault).
	lambdaIfaces    []*hierarchy.Class
	lambdaIfaceSeen map[int32]bool
	ifaceGroups     []*group
	steps           int
	std             stdReasons
	// problems are reported on the graph: bad specification entries.
	problems []string

	api apiState // per-run state of the API resolvers (resolve_reflect.go)
	// Level 6 (correctjdk.go): the JDK model, nil below; whether a native outside the
	// model is reachable, and whether the NativeMethod node was visited.
	jdk                   *jdkmodel.Model
	appNative, nativeDone bool
	jvmSetIdx             int32       // the set of the JDK model's targets (fallback.go), -1 until made
	rep                   *siteReport // nil unless Options.Sites is set (report.go)
	lib                   *libWorld   // nil unless Options.LibraryMode is set (library.go)

	// What Update needs of the run (trace.go): the method being visited, and the
	// justification of every member of a conditional set.
	cur          int32
	parent       []int32                   // by node: the method whose visit reached it first; -1 for entries
	condOf       []int32                   // by node: when first reached as a member of a conditional set, its justification; else -1
	condFrom     int32                     // the justification of the conditional member being added, or -1
	cond         map[int32]map[int32]int32 // conditional set -> member -> method whose visit justified it
	ifaceCreator map[int32]int32           // lambda interface -> creator of its first lambda
	reads        *valueReads
	inherit      *Previous        // set in an update's probe: the run it updates
	inherited    map[int32]int32  // probe set -> the updated run's set it copies
	changed      callgraph.Bitset // in a probe: the methods of the changed classes
	lambdaProbe  *probeLambdas    // in a probe: the updated run's lambda dispatches (update_lambdas.go)
	// changedClasses, in a probe, are the classes whose bytes changed.
	changedClasses map[string]bool
	unsupported    string // why a probe cannot be used; "" when it can
}

func newSolver(ctx context.Context, a *Analyzer, opts Options) *solver {
	ms := a.h.Methods()
	n := len(ms) + 1
	var jdk *jdkmodel.Model
	if opts.Level.ModelsJDK() {
		jdk, _ = a.model() // a run reports its error before it starts
	}
	var lib *libWorld
	if opts.LibraryMode {
		lib = newLibWorld(len(a.h.Classes()))
	}
	return &solver{
		stringClass: concreteOrNil(a.h.Class("java/lang/String")),
		classClass:  concreteOrNil(a.h.Class("java/lang/Class")),
		lib:         lib,
		jdk:         jdk,
		jvmSetIdx:   -1,
		ctx:         ctx,
		a:           a,
		h:           a.h,
		opts:        opts,
		methods:     ms,
		native:      int32(len(ms)),
		reach:       callgraph.NewBitset(n),
		single:      map[int32]int32{},
		fallback:    map[fallbackKey]int32{},
		reasonIdx:   map[callgraph.Reason]int32{},
		inited:      make([]bool, len(a.h.Classes())),
		groups:      map[dispatchKey]*group{},
		valueGroups: map[valueGroupKey]*group{},
		plain:       map[uint64]*group{},
		byName:      map[string][]*group{},
		lambdas:     map[string][]*lambda{},
		// The previous run's size: growing a million-entry slice by doubling
		// copied it twenty times.
		bundles: make([]callgraph.Bundle, 0, a.bundleHint.Load()),

		lambdaIfaceSeen: map[int32]bool{},
		cur:             -1,
		condFrom:        -1,
		cond:            map[int32]map[int32]int32{},
		ifaceCreator:    map[int32]int32{},
		reads:           newValueReads(),
	}
}

// stdReasons are the indices of the reasons the hot paths use, interned once per run
// so they are not hashed per edge.
type stdReasons struct {
	static, special, virtual, iface, init, native, lambda int32
}

func (s *solver) internStd() {
	s.std = stdReasons{
		static: s.reason(staticReason), special: s.reason(specialReason),
		virtual: s.reason(virtualReason), iface: s.reason(interfaceReason),
		init: s.reason(initReason), native: s.reason(nativeReason),
		lambda: s.reason(lambdaReason),
	}
}

func (s *solver) reason(r callgraph.Reason) int32 {
	if i, ok := s.reasonIdx[r]; ok {
		return i
	}
	i := int32(len(s.reasons))
	s.reasons = append(s.reasons, r)
	s.reasonIdx[r] = i
	return i
}

// reachable marks a node reachable and queues it.
func (s *solver) reachable(id int32) {
	if s.reach.Add(id) {
		if id == s.native || s.methods[id].Class.Origin == hierarchy.Application || s.methods[id].IsNative() {
			s.early = append(s.early, id)
		} else {
			s.work = append(s.work, id)
		}
		if s.parent != nil {
			s.parent[id], s.condOf[id] = s.cur, s.condFrom
		}
	}
}

// next pops the next node to visit. The fixed point does not depend on the order;
// this one visits application methods first, so that the sites users act on are
// found (and the site report hands them out) in the first milliseconds of a run
// instead of after the JDK's hundred thousand methods. Native methods and the
// NativeMethod node go early too: they have no code, and NativeMethod's edges,
// final at its one visit, are what the messages of native sites count.
func (s *solver) next() (id int32, early, ok bool) {
	if n := len(s.early); n > 0 {
		id = s.early[n-1]
		s.early = s.early[:n-1]
		return id, true, true
	}
	if n := len(s.work); n > 0 {
		id = s.work[n-1]
		s.work = s.work[:n-1]
		return id, false, true
	}
	return 0, false, false
}

// newSet creates an empty growable set.
func (s *solver) newSet() int32 {
	s.sets = append(s.sets, nil)
	s.live = append(s.live, false)
	s.instSet = append(s.instSet, false)
	if s.fl != nil {
		s.linked = append(s.linked, false)
	}
	return int32(len(s.sets) - 1)
}

// addSet registers a fixed set (shared, never modified).
func (s *solver) addSet(ids []int32) int32 {
	i := s.newSet()
	s.sets[i] = ids
	if s.rep != nil {
		s.rep.fixed(i)
	}
	return i
}

// grow adds a member to a growable set; members of live sets become reachable.
func (s *solver) grow(set, id int32) {
	s.sets[set] = append(s.sets[set], id)
	if s.env != nil {
		s.grown(set, id)
	}
	if s.fl != nil && s.linked[set] && id != s.native {
		s.fl.Member(set, s.methods[id])
	}
	if s.live[set] {
		s.reachable(id)
		if s.instSet[set] {
			s.instantiateCtor(id)
		}
	}
}

func (s *solver) singleton(id int32) int32 {
	if i, ok := s.single[id]; ok {
		return i
	}
	i := s.addSet([]int32{id})
	s.single[id] = i
	return i
}

// bundle adds edges from a site to every member of a set. When instantiates is set
// the edges model object creation (reflection, native code), so under RTA the classes
// of the constructors in the set become instantiated.
func (s *solver) bundle(at site, set, reason int32, instantiates bool) {
	s.bundleFrom(at, at.caller, set, reason, instantiates)
}

// bundleFrom is bundle for the calls that the method a site calls makes on the
// site's behalf, with objects of its own (deserialization's hooks): the graph has
// them at the site, and a Follower hears them as calls of from (nil: the JVM, which
// calls with what it holds) instead of the site's method.
func (s *solver) bundleFrom(at site, from *hierarchy.Method, set, reason int32, instantiates bool) {
	caller := s.native
	if at.caller != nil {
		caller = at.caller.ID
	}
	s.bundles = append(s.bundles, callgraph.Bundle{Caller: caller, PC: at.pc, Line: at.line, Call: at.call, Set: set, Reason: reason})
	if s.env != nil && s.reasons[reason].Kind.Dynamic() && !s.modelSets(at) {
		s.dynamicBundle(set, caller)
	}
	if !s.live[set] {
		s.live[set] = true
		for _, id := range s.sets[set] {
			s.reachable(id)
		}
	}
	if instantiates && !s.instSet[set] {
		s.instSet[set] = true
		for _, id := range s.sets[set] {
			s.instantiateCtor(id)
		}
	}
	if s.fl != nil {
		kind := algo.Direct
		switch {
		case instantiates:
			kind = algo.Creating
		case reason == s.std.init:
			kind = algo.Initializes
		}
		s.follow(at, from, set, kind)
	}
}

// follow tells a Follower oracle that from, at the site, calls the members of set.
func (s *solver) follow(at site, from *hierarchy.Method, set int32, kind algo.CallKind) {
	if !s.linked[set] {
		s.linked[set] = true
		for _, id := range s.sets[set] {
			if id != s.native {
				s.fl.Member(set, s.methods[id])
			}
		}
	}
	s.fl.Calls(from, at.pc, set, kind)
}

// instantiateCtor tells the oracle that a constructor in a set of a creating site
// runs on objects of its class, wherever they appear. Followers hear of creation
// with the site instead (algo.Creating), which says where the objects appear.
func (s *solver) instantiateCtor(id int32) {
	if id == s.native || s.fl != nil {
		return
	}
	if m := s.methods[id]; m.Name == "<init>" {
		s.oracle.Created(algo.Any(m.Class), m.Class)
	}
}

// edge adds an edge from a site to one method.
func (s *solver) edge(at site, m *hierarchy.Method, r callgraph.Reason) {
	s.bundle(at, s.singleton(m.ID), s.reason(r), false)
}

// dispatch adds the edges of a virtual call of rm on receiver v, whose classes the
// algorithm's oracle answers, and returns the set of their targets.
func (s *solver) dispatch(at site, v algo.Value, rm *hierarchy.Method, r callgraph.Reason) int32 {
	return s.dispatchIdx(at, v, rm, s.reason(r), nil)
}

// dispatchFrom is dispatch restricted, when from is not nil, to the targets that are
// public or encapsulation-safe from class from: reflective calls resolved at levels
// 3 to 5 keep Encap-Respect's assumption, so their targets stay within its sets.
func (s *solver) dispatchFrom(at site, v algo.Value, rm *hierarchy.Method, r callgraph.Reason, from *hierarchy.Class) {
	s.dispatchIdx(at, v, rm, s.reason(r), from)
}

// dispatchIdx is dispatchFrom with an interned reason: the hot path of every virtual
// call, so neither the reason nor the group key is hashed as a struct of strings.
func (s *solver) dispatchIdx(at site, v algo.Value, rm *hierarchy.Method, ri int32, from *hierarchy.Class) int32 {
	scope := s.oracle.Scope(v)
	t := scope.Type
	key := dispatchKey{rm.ID, t.ID, 0}
	if from != nil {
		key.encap = from.ID + 1
	}
	packed := uint64(uint32(key.method))<<32 | uint64(uint32(key.declared))
	var g *group
	switch {
	case scope.Kind != algo.Declared:
		g = s.valueGroups[valueGroupKey{key, scope}]
	case from == nil:
		g = s.plain[packed]
	default:
		g = s.groups[key]
	}
	if g == nil {
		g = &group{key: key, rm: rm, declared: t, value: scope, lambdaSet: -1}
		if from != nil {
			g.keep = s.encapKeep(from)
		}
		switch {
		case scope.Kind != algo.Declared:
			s.valueGroups[valueGroupKey{key, scope}] = g
		case from == nil:
			s.plain[packed] = g
		default:
			s.groups[key] = g
		}
		g.set = s.newSet()
		s.live[g.set] = true // its members become reachable as they are found
		s.fillGroup(g)
		if s.inherit != nil && g.declared.IsInterface() {
			s.inheritLambdaSet(g)
		}
		// Lambda objects implement interfaces only, and their functional method is
		// never a public method of Object: only dispatches declared on interfaces can
		// reach them, so only those are indexed for lambdas and keep their sites.
		if g.declared.IsInterface() {
			s.byName[rm.Name] = append(s.byName[rm.Name], g)
			s.followLambdas(g)
			for _, l := range s.lambdas[rm.Name] {
				s.matchLambda(g, l)
			}
			s.ifaceGroups = append(s.ifaceGroups, g)
			for _, iface := range s.lambdaIfaces {
				s.matchDefault(g, iface)
			}
		}
	}
	if g.declared.IsInterface() {
		g.sites = append(g.sites, at)
	}
	s.bundle(at, g.set, ri, false)
	if g.lambdaSet >= 0 {
		s.bundle(at, g.lambdaSet, s.std.lambda, false)
	}
	if s.lib != nil {
		s.libraryDispatch(at, g, ri)
	}
	return g.set
}

// keyGroup returns a group of dispatch key k that is not the solver's: its method,
// declared type and filter, as the tests of lambdas and library targets read them.
func (s *solver) keyGroup(k dispatchKey) *group {
	g := &group{key: k, rm: s.methods[k.method], declared: s.h.Classes()[k.declared], lambdaSet: -1}
	if k.encap > 0 {
		g.keep = s.encapKeep(s.h.Classes()[k.encap-1])
	}
	return g
}

// encapKeep is the filter of a dispatch from class from that respects
// encapsulation: public targets, and those encapsulation-safe from it.
func (s *solver) encapKeep(from *hierarchy.Class) func(*hierarchy.Method) bool {
	return func(m *hierarchy.Method) bool { return m.IsPublic() || s.h.EncapsulationSafe(from, m) }
}

// followLambdas restricts the lambdas that value group g matches to those the
// oracle finds in its receivers, when it follows lambdas (TFA): an interface call
// on a lambda reaches that lambda's body, and one on an object the program made
// reaches none, not every lambda of the program (and of the JDK) that merely shares
// its interface and method name.
func (s *solver) followLambdas(g *group) {
	lf, ok := s.oracle.(algo.LambdaFollower)
	if !ok || g.value.Kind == algo.Declared {
		return
	}
	g.lambdaSites = map[siteKey]bool{}
	follows := lf.Lambdas(g.value, func(creator *hierarchy.Method, pc int32) {
		k := siteKey{creator.ID, pc}
		if g.lambdaSites == nil || g.lambdaSites[k] {
			return
		}
		g.lambdaSites[k] = true
		for _, l := range s.lambdas[g.rm.Name] {
			if l.creator == k.m && l.pc == k.pc {
				s.matchLambda(g, l)
			}
		}
	})
	if !follows {
		g.lambdaSites = nil
	}
}

func (s *solver) fillGroup(g *group) {
	add := func(_ *hierarchy.Class, t *hierarchy.Method) {
		if t != nil && (g.keep == nil || g.keep(t)) && g.addMember(s.sets[g.set], t.ID) {
			s.grow(g.set, t.ID)
		}
	}
	if s.oracle.Fixed() {
		s.a.mu.Lock()
		cached, ok := s.a.chaDispatch[g.key]
		s.a.mu.Unlock()
		if ok {
			// CHA groups never grow, so the shared slice is used as it is (capped, so
			// nothing can append into it).
			s.sets[g.set] = cached[:len(cached):len(cached)]
			for _, id := range cached {
				s.reachable(id)
			}
			return
		}
		algo.SelectTypes(s.oracle, s.h, g.value, g.rm, add)
		s.a.mu.Lock()
		s.a.chaDispatch[g.key] = slices.Clone(s.sets[g.set])
		s.a.mu.Unlock()
		return
	}
	algo.SelectTypes(s.oracle, s.h, g.value, g.rm, add)
}

// concreteOrNil returns c when instances of it can exist, else nil.
func concreteOrNil(c *hierarchy.Class) *hierarchy.Class {
	if c == nil || !concrete(c) {
		return nil
	}
	return c
}

// solve runs the worklist to its fixed point.
func (s *solver) solve() error {
	for {
		if s.env != nil {
			if s.env.restart {
				return errEnvWritten
			}
			if len(s.env.redo) > 0 {
				s.redoSites()
			}
		}
		id, early, ok := s.next()
		if !ok {
			if s.env != nil && len(s.env.redo) > 0 {
				continue
			}
			return nil
		}
		if s.rep != nil {
			s.rep.step(s, id, early)
		}
		if s.steps++; s.steps&1023 == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
			if s.steps&16383 == 0 && s.opts.Progress != nil {
				s.opts.Progress(s.steps)
			}
		}
		if s.access.restart(id) {
			return errNewOverride
		}
		s.cur = id
		if id == s.native {
			s.visitNative()
			s.nativeDone = true
			continue
		}
		s.visit(s.methods[id])
	}
}

// visit processes a newly reachable method: its calls, allocations and static field
// accesses.
func (s *solver) visit(m *hierarchy.Method) {
	if m.IsNative() {
		if s.fl != nil {
			s.fl.Reached(m, nil)
		}
		if s.modelled(m) {
			s.visitModelled(m)
			return
		}
		s.bundle(site{caller: m, pc: -1, line: -1, call: -1}, s.singleton(s.native), s.std.native, false)
		if s.jdk != nil && !s.appNative {
			// Level 6: the first native the model does not cover opens the JVM node's
			// public fallback (once it is visited; visitNative checks appNative).
			s.appNative = true
			switch {
			case s.inherit != nil && !s.changed.Has(s.native):
				// The probe would have to visit the NativeMethod node again (a
				// member edit's does).
				s.unsupported = "a native method outside the JDK model became reachable"
			case s.nativeDone:
				s.nativeFallback()
			}
		}
		return
	}
	f := s.a.prog.Facts(m)
	if s.fl != nil {
		s.fl.Reached(m, f)
	}
	if f == nil {
		return
	}
	p := s.a.plan(m, f)
	for i := range f.Calls {
		s.call(m, int32(i), &f.Calls[i], &p.calls[i])
	}
	for i := range f.Allocs {
		c := p.alloc(s.a.h, i)
		if c == nil {
			continue
		}
		al := &f.Allocs[i]
		at := site{caller: m, pc: al.PC, line: al.Line, call: -1}
		s.oracle.Created(algo.DefOf(m, al.PC, c), c)
		s.initialize(at, c)
		s.finalizer(at, c)
	}
	// String and class literals are objects the JVM makes where they are loaded.
	if len(f.StringConsts) > 0 && s.stringClass != nil {
		for i := range f.StringConsts {
			s.oracle.Created(algo.DefOf(m, f.StringConsts[i].PC, s.stringClass), s.stringClass)
		}
	}
	if len(f.ClassConsts) > 0 && s.classClass != nil {
		for i := range f.ClassConsts {
			s.oracle.Created(algo.DefOf(m, f.ClassConsts[i].PC, s.classClass), s.classClass)
		}
	}
	for i := range f.HandleConsts {
		hc := &f.HandleConsts[i]
		s.handleConst(site{caller: m, pc: hc.PC, line: hc.Line, call: -1}, hc.Const, 0)
	}
	for i := range f.Fields {
		if c := p.static(s.a.h, i); c != nil {
			fa := &f.Fields[i]
			s.initialize(site{caller: m, pc: fa.PC, line: fa.Line, call: -1}, c)
		}
	}
}

// call resolves one call instruction with the standard resolvers and hands it to the
// API resolvers registered for its target.
func (s *solver) call(m *hierarchy.Method, i int32, c *facts.Call, p *callPlan) {
	at := site{caller: m, pc: c.PC, line: c.Line, call: i}
	if c.Op == bytecode.Invokedynamic {
		s.invokedynamic(at, c)
		if s.lib != nil {
			s.libraryLambda(at, c)
		}
		return
	}
	h := s.a.h
	rm := methodOf(h, p.resolved)
	if rm == nil {
		return // a phantom or unresolvable target: counted by the hierarchy
	}
	apis := s.a.apiList(p.apis)
	if s.fl != nil {
		for _, r := range apis {
			if cr, ok := r.(creatingResolver); ok && cr.returnsCreated(rm) {
				s.fl.CreatesOnly(m, c.PC) // before the direct bundle links its result
			}
		}
	}
	switch c.Op {
	case bytecode.Invokestatic:
		s.bundle(at, s.singleton(rm.ID), s.std.static, false)
		s.initialize(at, rm.Class)
	case bytecode.Invokespecial:
		s.bundle(at, s.singleton(p.special-1), s.std.special, false)
	case bytecode.Invokevirtual, bytecode.Invokeinterface:
		ri := s.std.virtual
		if c.Op == bytecode.Invokeinterface {
			ri = s.std.iface
		}
		if p.direct {
			s.bundle(at, s.singleton(rm.ID), ri, false)
		} else {
			s.dispatchIdx(at, algo.OperandOf(m, c.PC, 0, classOf(h, p.owner)), rm, ri, nil)
		}
	}
	if rm.IsNative() && !rm.IsSignaturePolymorphic() {
		if s.modelled(rm) {
			s.modelSite(at, rm)
		} else {
			s.nativeSite(at, rm)
		}
	}
	for _, r := range apis {
		r.Resolve(s, at, c, rm)
	}
}

// methodPlan is what visiting a method needs from the hierarchy, resolved once and
// shared by every run: the same at every level and with every algorithm. It holds
// IDs, not pointers: there is a plan for every call instruction of the class path
// (1.2 million with the JDK), and without pointers they are half the size and the
// collector does not scan them.
type methodPlan struct {
	calls []callPlan
	// classes holds, by facts.Allocs index, 1 + the ID of the class a new creates
	// and then, by facts.Fields index, 1 + the ID of the class a static access
	// initialises; 0 for none.
	classes []int32
	nAllocs int32
}

// alloc returns the class the method's allocation i creates with new, else nil.
func (p *methodPlan) alloc(h *hierarchy.Hierarchy, i int) *hierarchy.Class {
	return classOf(h, p.classes[i])
}

// static returns the class the method's static field access i initialises, else nil.
func (p *methodPlan) static(h *hierarchy.Hierarchy, i int) *hierarchy.Class {
	return classOf(h, p.classes[int(p.nAllocs)+i])
}

// classOf returns the class of a plan's 1 + ID, nil for 0.
func classOf(h *hierarchy.Hierarchy, id1 int32) *hierarchy.Class {
	if id1 == 0 {
		return nil
	}
	return h.Classes()[id1-1]
}

type callPlan struct {
	owner    int32 // 1 + the ID of the class named by the instruction (Object for arrays); 0 when not in the hierarchy
	resolved int32 // 1 + the ID of the resolved method; 0 when unresolvable
	special  int32 // invokespecial: 1 + the ID of the selected method
	apis     int32 // 1 + the index in Analyzer.apiLists of the resolvers of the resolved method; 0 for none
	direct   bool  // a single possible target: invokestatic, invokespecial, or invokevirtual/interface of a private, final, ... method
}

// methodOf returns the method of a plan's 1 + ID, nil for 0.
func methodOf(h *hierarchy.Hierarchy, id1 int32) *hierarchy.Method {
	if id1 == 0 {
		return nil
	}
	return h.Methods()[id1-1]
}

// plan returns m's plan, building it on first use. Concurrent runs may build it
// twice; both results are equal and either is kept.
func (a *Analyzer) plan(m *hierarchy.Method, f *facts.Method) *methodPlan {
	if p := a.plans[m.ID].Load(); p != nil {
		return p
	}
	h := a.h
	p := &methodPlan{calls: make([]callPlan, len(f.Calls)), classes: make([]int32, len(f.Allocs)+len(f.Fields)), nAllocs: int32(len(f.Allocs))}
	for i := range f.Calls {
		c := &f.Calls[i]
		if c.Op == bytecode.Invokedynamic {
			continue
		}
		cp := &p.calls[i]
		// An array's methods are Object's (JLS 10.7; clone is special-cased by the
		// JVM), and an array class overrides none of them: the resolved method is the
		// only target.
		array := c.Ref.Class != "" && c.Ref.Class[0] == '['
		owner := h.Object()
		if !array {
			owner = h.Class(c.Ref.Class)
		}
		if owner == nil {
			continue
		}
		cp.owner = owner.ID + 1
		rm, err := h.ResolveMethod(owner, c.Ref.Name, c.Ref.Desc, c.Ref.Interface)
		if err != nil || rm == nil {
			continue
		}
		cp.resolved, cp.special = rm.ID+1, rm.ID+1
		if c.Op == bytecode.Invokespecial && rm.Name != "<init>" {
			if sel := h.SpecialTarget(m.Class, rm, owner); sel != nil {
				cp.special = sel.ID + 1
			}
		}
		// Only invokevirtual and invokeinterface dispatch: Prepare computes the CHA
		// dispatch of the others' resolved methods for nothing (every constructor call
		// would ask what each subclass selects for <init>).
		cp.direct = c.Op == bytecode.Invokestatic || c.Op == bytecode.Invokespecial || array || rm.IsPrivate() || rm.IsStatic() || (rm.Access&accFinal != 0 && !rm.Class.IsInterface()) || rm.IsSignaturePolymorphic()
		cp.apis = a.apiResolvers(rm)
	}
	for i := range f.Allocs {
		if al := &f.Allocs[i]; al.Op == bytecode.New {
			if c := h.Class(al.Type); c != nil && !c.Phantom {
				p.classes[i] = c.ID + 1
			}
		}
	}
	for i := range f.Fields {
		fa := &f.Fields[i]
		if !fa.Static {
			continue
		}
		if c := h.Class(fa.Ref.Class); c != nil {
			if fd, err := h.ResolveField(c, fa.Ref.Name, fa.Ref.Desc); err == nil && fd != nil {
				p.classes[len(f.Allocs)+i] = fd.Class.ID + 1
			}
		}
	}
	a.plans[m.ID].Store(p)
	return p
}

const accFinal = 0x0010

// graph freezes the run into an immutable call graph.
func (s *solver) graph() *callgraph.Graph {
	for i, set := range s.sets {
		s.sets[i] = frozenSet(set)
	}
	s.bundles = s.env.liveBundles(s.bundles)
	s.a.bundleHint.Store(int64(len(s.bundles)))
	s.bundles = sortBundles(s.bundles, len(s.methods)+1)
	s.sites = s.env.liveSites(s.sites)
	slices.SortStableFunc(s.sites, func(a, b callgraph.Site) int {
		return cmp.Or(cmp.Compare(a.Caller, b.Caller), cmp.Compare(a.PC, b.PC))
	})
	return &callgraph.Graph{
		Level:     s.opts.Level,
		Algorithm: s.opts.Algorithm,
		NumNodes:  len(s.methods) + 1,
		Native:    s.native,
		Reachable: s.reach,
		Entries:   s.entries,
		Bundles:   s.bundles,
		Sets:      s.sets,
		Reasons:   s.reasons,
		Sites:     s.sites,
		Problems:  s.problems,
	}
}

// frozenSet returns a set as the graph holds it: sorted, without duplicates. Sets
// that are sorted already are kept as they are (fixed sets are shared).
func frozenSet(set []int32) []int32 {
	if strictlyIncreasing(set) {
		return set
	}
	set = slices.Clone(set)
	slices.Sort(set)
	return slices.Compact(set)
}

// strictlyIncreasing reports whether a set is sorted and free of duplicates (a set
// may be grown twice with one member, as by two lambdas with the same body).
func strictlyIncreasing(set []int32) bool {
	for i := 1; i < len(set); i++ {
		if set[i] <= set[i-1] {
			return false
		}
	}
	return true
}

// cmpInCaller orders the bundles of one caller.
func cmpInCaller(a, b callgraph.Bundle) int {
	return cmp.Or(cmp.Compare(a.PC, b.PC), cmp.Compare(a.Call, b.Call), cmp.Compare(a.Set, b.Set), cmp.Compare(a.Reason, b.Reason))
}

// bundlesInOrder reports whether bs is as sortBundles leaves it: by caller, then
// cmpInCaller, without duplicates.
func bundlesInOrder(bs []callgraph.Bundle) bool {
	for i := 1; i < len(bs); i++ {
		if cmp.Or(cmp.Compare(bs[i-1].Caller, bs[i].Caller), cmpInCaller(bs[i-1], bs[i])) >= 0 {
			return false
		}
	}
	return true
}

// sortBundles orders bundles by caller (a counting sort: there are ~10^6 of them) and
// within a caller by a total order on the other fields, dropping duplicates, so the
// graph is deterministic.
func sortBundles(bs []callgraph.Bundle, nodes int) []callgraph.Bundle {
	start := make([]int32, nodes+1)
	for i := range bs {
		start[bs[i].Caller+1]++
	}
	for i := 1; i <= nodes; i++ {
		start[i] += start[i-1]
	}
	out := make([]callgraph.Bundle, len(bs))
	next := slices.Clone(start[:nodes])
	for _, b := range bs {
		out[next[b.Caller]] = b
		next[b.Caller]++
	}
	w := 0
	for n := 0; n < nodes; n++ {
		group := out[start[n]:start[n+1]]
		slices.SortFunc(group, cmpInCaller)
		for i, b := range group {
			if i > 0 && b == group[i-1] {
				continue
			}
			out[w] = b
			w++
		}
	}
	return out[:w]
}
