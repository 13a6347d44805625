// Package analysis computes call graphs: a worklist over reachable methods from entry
// points, with the algorithm behind one small interface (algo.Oracle: CHA, RTA) and every
// language feature handled by its own resolver that uses that interface. The dynamic
// features follow the assumption level of the run (see package callgraph).
//
// An Analyzer holds what runs at different levels and algorithms can share (CHA
// dispatch results, class-initialisation chains, fallback target sets); each Run builds
// one immutable *callgraph.Graph.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/cha"
	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Program is what the analysis reads: the class hierarchy and per-method facts
// (Facts nil for methods without code; Flow the def-use and post-dominance facts of a
// method with code). Implementations must be safe for concurrent use.
type Program = values.Program

// Options select the level, the algorithm and the entry points of a run.
type Options struct {
	Level     callgraph.Level     // 0: DefaultLevel
	Algorithm callgraph.Algorithm // 0: DefaultAlgorithm
	// Mains restricts the main classes (binary or internal names); empty means every
	// application class with a main method.
	Mains []string
	// LibraryMode analyses application classes as a library for unknown clients, an
	// open world (library.go): every method a client can call or override is an
	// entry point (public and protected ones, package-private ones of packages a
	// client can join), and calls also reach what client subclasses and
	// implementations may select, instead of main methods.
	LibraryMode bool
	// Entries are explicit entry methods, "pkg.Class.name" or "pkg.Class.name(desc)".
	Entries []string
	// Env holds system properties and environment values for Correct-Env; a key
	// "env.NAME" gives System.getenv("NAME") when it differs from the property.
	Env map[string]string
	// Spec holds the user's specification entries; nil for none.
	Spec *spec.File
	// Progress, when set, is called now and then during a run with the number of
	// methods found reachable so far (the total is not known before the end).
	Progress func(reached int) `json:"-"`
	// Sites, when set, is called now and then during a run with a partial graph of
	// the dynamic sites found since the previous call that are settled: Sites holds
	// them and Bundles the edges resolved at their instructions, with the sites'
	// and those edges' target sets in Sets (numbered for the partial graph), each
	// exactly as the final graph will have it. The first call after the
	// NativeMethod node is visited also holds its edges (below
	// Correct-JDK, where they are the JVM's upcalls and in the final graph only). Reachable is nil. Sites
	// whose edges may still grow (dispatch under RTA, method handles created
	// elsewhere, resolved targets, the fallback of an unresolved invocation under
	// RTA, XTA and TFA, which holds the instance methods of created classes) are
	// in the final graph only, and so are all of a
	// run whose program overrides access checks at a level from Encap-Respect on (it
	// takes several passes: resolve_access.go). Application methods
	// are visited first, so their sites come within the first milliseconds. It is
	// called on the run's goroutine: it must be quick and must not modify the graph.
	Sites func(partial *callgraph.Graph) `json:"-"`
	// WithoutJDKFallbacks, when set, makes the run a what-if, not an assumption
	// level: the JDK's dynamic sites that stay unresolved add none of their
	// conservative edges, so the graph is not sound, and the run tells
	// WithoutJDKFallbacks of each such site (maybe more than once). Those are the
	// JDK's sites that code reaches without any of the JDK's fallbacks: each must be
	// resolved at the level, or become unreachable, before the cascade of the
	// JDK's fallbacks can shrink. The application's and libraries' fallbacks, and
	// the NativeMethod node's, are kept. It is called on the run's goroutine.
	WithoutJDKFallbacks func(caller callgraph.NodeID, pc int32) `json:"-"`
	// PlainPropertyWriter, when set, is told each plain call (not a dynamic one:
	// those are PropertyWriters) through which reachable code may set every system
	// property, or (security) every security property, from Correct-Env on: a
	// setProperty whose key the string analysis does not know, setProperties, a
	// getProperties whose object the caller keeps or hands on. One is enough for
	// no property to be taken as unset, and the graph does not tell which they
	// are. It is called on the run's goroutine, maybe more than once for a call
	// (a pass may start again).
	PlainPropertyWriter func(caller callgraph.NodeID, pc, line int32, api *hierarchy.Method) `json:"-"`
	// Explain, when set, makes a run of an algorithm that follows values (XTA,
	// TFA) record how values come to hold objects of Explain.Classes, for
	// Explain.Receiver to tell afterwards. It changes no result; it costs memory
	// in proportion to the values those classes reach.
	Explain *ValueExplain `json:"-"`
}

// ValueExplain asks a run how values come to hold objects of some classes: why
// a call's receiver may be a C, which a call path does not say, since under XTA
// and TFA a dispatch reaches C's methods only where C's objects flow.
type ValueExplain struct {
	Classes []*hierarchy.Class
	// Lambdas are implementations: the lambdas and method references made with
	// one of them are traced too.
	Lambdas []*hierarchy.Method
	// Receiver is set by a run whose algorithm follows values (the last pass's,
	// when a run takes several). For each object of one of the classes that the
	// receiver of the call at pc in caller holds (at most most of them), it
	// returns the steps by which the receiver came to hold it, the receiver
	// first: each value it came from, back to where the object was created or to
	// a value that holds any object, and why. It returns nil when the receiver
	// holds none.
	Receiver func(caller *hierarchy.Method, pc int32, most int) []algo.Chain
}

// Key identifies the graph a run with these options computes over a given program,
// for caches of graphs: every option that changes the graph, in a canonical form,
// except the specification, whose content the caller adds (Spec holds no source
// text to hash).
func (o Options) Key() string {
	o = o.WithDefaults()
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%q|%q|%v|%v|", o.Level, o.Algorithm, o.Mains, o.Entries, o.LibraryMode, o.WithoutJDKFallbacks != nil)
	for _, k := range slices.Sorted(maps.Keys(o.Env)) {
		fmt.Fprintf(&b, "%q=%q;", k, o.Env[k])
	}
	return b.String()
}

// ErrNoEntryPoints is returned when a run has nothing to start from.
var ErrNoEntryPoints = errors.New("no entry points: no application class has a main method (use --library-mode or --main)")

// Analyzer runs analyses over one program, sharing level-independent work.
type Analyzer struct {
	prog      Program
	h         *hierarchy.Hierarchy
	resolvers *registry

	mu          sync.Mutex
	chaDispatch map[dispatchKey][]int32      // CHA dispatch results, the same at every level
	initChains  map[int32][]int32            // class ID -> <clinit> IDs run when it is initialised
	fallbacks   map[fallbackKey][]int32      // conservative target sets
	apiCache    map[int32]int32              // resolved method ID -> callPlan.apis
	apiLists    [][]CallResolver             // by callPlan.apis - 1: the resolvers of an API method
	plans       []atomic.Pointer[methodPlan] // by method ID
	bundleHint  atomic.Int64                 // bundles of the last run, to size the next
	xtaTopSize  int                          // XTA's and TFA's widening size; 0 for their default (tests set it)
	valuesOnce  sync.Once
	vindex      *values.Index
	jdk         jdkModel
	services    serviceProviders // level 6: resolve_jdkconfig.go
	overrides   accessOverrides  // resolve_access.go
	containerIx containerIndexes // level 6: resolve_containers.go
	// level 6: resolve_bootstrap.go
	bootstrapOnce sync.Once
	// annotations are the member methods of the class path's annotation
	// interfaces (resolve_jdkinvoke.go).
	annotations    []*hierarchy.Method
	annotationOnce sync.Once
	// deserializers are the class path's $deserializeLambda$ methods
	// (resolve_jdkinvoke.go).
	deserializers   []*hierarchy.Method
	deserializeOnce sync.Once
	bootstraps      bootstrapSet
	// proxyInitClasses are the classes a proxy class's initialisation may
	// initialise, defaults the public default methods (resolve_jdkserialproxy.go).
	proxyInitClasses []*hierarchy.Class
	proxyInitOnce    sync.Once
	defaults         []*hierarchy.Method
	defaultsOnce     sync.Once
}

// New returns an analyzer for prog.
func New(prog Program) *Analyzer {
	h := prog.Hierarchy()
	a := &Analyzer{
		prog:        prog,
		h:           h,
		resolvers:   newRegistry(),
		chaDispatch: map[dispatchKey][]int32{},
		initChains:  map[int32][]int32{},
		fallbacks:   map[fallbackKey][]int32{},
		apiCache:    map[int32]int32{},
		plans:       make([]atomic.Pointer[methodPlan], len(h.Methods())),
	}
	return a
}

// Hierarchy returns the program's hierarchy.
func (a *Analyzer) Hierarchy() *hierarchy.Hierarchy { return a.h }

// Program returns the analysed program.
func (a *Analyzer) Program() Program { return a.prog }

// Run computes the call graph for opts. Runs may proceed concurrently.
func (a *Analyzer) Run(ctx context.Context, opts Options) (*callgraph.Graph, error) {
	g, _, err := a.RunTrace(ctx, opts)
	return g, err
}

// RunTrace is Run, also returning the trace that Update needs to update the graph
// later.
func (a *Analyzer) RunTrace(ctx context.Context, opts Options) (*callgraph.Graph, *Trace, error) {
	opts, err := normalize(opts)
	if err != nil {
		return nil, nil, err
	}
	if opts.Level.ModelsJDK() {
		if _, err := a.model(); err != nil {
			return nil, nil, err
		}
	}
	// A run reaches the program's access overrides only as it goes (resolve_access.go):
	// a pass that is about to visit a method with an override it did not take as
	// reached stops, and the run starts again with the overrides reached so far. It
	// streams no sites then, since a later pass may widen a site an earlier settled.
	// Likewise a pass whose answers took a system property as unset that reachable
	// code turns out to write where the pass cannot answer again (resolve_env.go)
	// starts again knowing the writes.
	var active []*override
	var env *envState
	overrides := opts.Level.RespectsEncapsulation() && len(a.overrideCalls()) > 0
	for {
		s, err := a.runOnce(ctx, opts, active, overrides, env)
		if errors.Is(err, errNewOverride) {
			active = s.reachedOverrides()
			continue
		}
		if errors.Is(err, errEnvWritten) {
			env = &s.env.envState
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if opts.Spec != nil && len(opts.Spec.Entries) > 0 {
			// Entries are matched against the classes at the first reflective site;
			// a run that meets none must still report the entries that match nothing.
			s.specIndex()
		}
		g, t := s.finish(len(active) > 0)
		return g, t, nil
	}
}

// finish returns the graph and the trace of the run s has solved; overrides says
// whether it took access overrides as reached. Neither may point into s: the
// server keeps both for the life of a snapshot, and the solver with its oracle is
// most of a run's memory (on javacc, 145 MiB of the server's 814 MiB live heap
// when the trace held the run's envRun, whose dynamic sites' fallback closures
// hold the solver).
func (s *solver) finish(overrides bool) (*callgraph.Graph, *Trace) {
	t := s.trace()
	t.overrides = overrides
	if s.env != nil {
		st := s.env.envState
		t.env = &st
	}
	return s.graph(), t
}

// runOnce solves one pass of a run, with the access overrides active taken as
// reached; overrides says whether the program has any (then the pass stops with
// errNewOverride, and the solver so far, at the first method with another). env
// holds the system properties earlier passes found written.
func (a *Analyzer) runOnce(ctx context.Context, opts Options, active []*override, overrides bool, env *envState) (*solver, error) {
	s := newSolver(ctx, a, opts)
	s.env = s.newEnvRun(env)
	if overrides {
		s.access = newAccessRun(a.overrideCalls(), active)
	}
	if opts.Sites != nil && !overrides {
		s.rep = newSiteReport(opts.Sites)
	}
	s.internStd()
	s.parent, s.condOf = make([]int32, len(s.methods)+1), make([]int32, len(s.methods)+1)
	var err error
	if s.oracle, err = a.newOracle(opts.Algorithm, opts.Level, func(set int32) []int32 { return s.sets[set] }); err != nil {
		return nil, err
	}
	s.fl, _ = s.oracle.(algo.Follower)
	if tr, ok := s.oracle.(algo.Tracer); ok && opts.Explain != nil {
		tr.Trace(opts.Explain.Classes, opts.Explain.Lambdas)
		opts.Explain.Receiver = func(caller *hierarchy.Method, pc int32, most int) []algo.Chain {
			return tr.Explain(algo.OperandOf(caller, pc, 0, nil), most)
		}
	}
	if s.fl != nil {
		s.linked = make([]bool, len(s.sets))
	}
	if err := s.addEntries(); err != nil {
		return nil, err
	}
	if s.jdk != nil {
		s.reachable(s.native) // the JVM
	}
	if err := s.solve(); err != nil {
		return s, err
	}
	return s, nil
}

// Prepare does, on every core, the level-independent work that runs of algorithm
// alg (0: DefaultAlgorithm) would otherwise do one method at a time: planning every
// method with code (resolving its calls) and, for an algorithm that dispatches by
// the hierarchy alone, the dispatch of every virtual call. Runs work without it; it
// only makes the first one faster.
func (a *Analyzer) Prepare(ctx context.Context, alg callgraph.Algorithm) error {
	if err := a.prepareCalls(ctx); err != nil {
		return err
	}
	if alg = orDefault(alg, DefaultAlgorithm); !alg.DispatchesByHierarchy() {
		return nil
	}
	return a.prepareCHA(ctx)
}

// prepareCalls plans every method with code, on every core.
func (a *Analyzer) prepareCalls(ctx context.Context) error {
	classes := a.h.Classes()
	// By class, not by method: the facts of a class are extracted once, and workers
	// on methods of one class would wait for each other.
	return parallelFor(ctx, len(classes), func(i int) {
		for _, m := range classes[i].Methods {
			if f := a.prog.Facts(m); f != nil {
				a.plan(m, f)
			}
		}
	})
}

// prepareCHA computes the CHA dispatch of every planned virtual call on every core.
func (a *Analyzer) prepareCHA(ctx context.Context) error {
	ms := a.h.Methods()
	seen := map[dispatchKey]bool{}
	var keys []dispatchKey
	for _, m := range ms {
		p := a.plans[m.ID].Load()
		if p == nil {
			continue
		}
		for i := range p.calls {
			c := &p.calls[i]
			if c.resolved == 0 || c.direct || c.owner == 0 {
				continue
			}
			k := dispatchKey{c.resolved - 1, c.owner - 1, 0}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return parallelFor(ctx, len(keys), func(i int) {
		a.chaTargets(ms[keys[i].method], a.h.Classes()[keys[i].declared])
	})
}

// parallelFor runs fn(0..n-1) on GOMAXPROCS goroutines.
func parallelFor(ctx context.Context, n int, fn func(i int)) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// CHATargets returns the methods a virtual call of rm on a receiver of declared type
// t may reach under CHA, whatever the algorithm of a run: what a finer algorithm's
// answer leaves out is the price users weigh its assumptions by. The result is
// shared: do not modify it.
func (a *Analyzer) CHATargets(rm *hierarchy.Method, t *hierarchy.Class) []int32 {
	return a.chaTargets(rm, t)
}

// chaTargets returns the CHA dispatch targets of rm on receivers of declared type t,
// computed once per analyzer.
func (a *Analyzer) chaTargets(rm *hierarchy.Method, t *hierarchy.Class) []int32 {
	k := dispatchKey{rm.ID, t.ID, 0}
	a.mu.Lock()
	ids, ok := a.chaDispatch[k]
	a.mu.Unlock()
	if ok {
		return ids
	}
	seen := map[int32]bool{}
	algo.SelectTypes(cha.New(a.h), a.h, algo.Any(t), rm, func(_ *hierarchy.Class, s *hierarchy.Method) {
		if s != nil && !seen[s.ID] {
			seen[s.ID] = true
			ids = append(ids, s.ID)
		}
	})
	a.mu.Lock()
	a.chaDispatch[k] = ids
	a.mu.Unlock()
	return ids
}
