package analysis

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// A Trace is what a run leaves beside its graph so that Update can later prove an
// in-place update equal to a new run. The graph alone does not say which of its
// edges exist only because some other method was reached: a call on an interface
// reaches a lambda's body only if the method creating the lambda is reachable too.
// Those edges all go to conditional sets (the targets of dispatches through lambdas,
// the method-handle targets), whose members the trace justifies one by one.
//
// A Trace is immutable once its run has returned.
type Trace struct {
	// cond maps each conditional set of the graph to its members and, for each,
	// the method whose reachability justified it (a lambda's creator, a lookup's
	// caller).
	cond map[int32]map[int32]int32
	// parent and condOf give every reachable node a derivation: the method whose
	// visit reached it first (-1 for entry points) and, when that was as a member of a
	// conditional set, the method justifying the membership (else -1). Both were
	// reached before the node.
	parent, condOf []int32
	// handleSet is the set of method-handle targets, or -1.
	handleSet int32
	// spunSets are the sets of what CGLIB's invokeSuper runs, one per flavour
	// (resolve_spun.go): conditional sets grown from many methods, as handleSet.
	spunSets []int32
	// ifaceLambda is, for every dispatch on an interface, the graph's set of its
	// targets through lambdas, or -1 when it has none.
	ifaceLambda map[dispatchKey]int32
	// serial are the sets of serialization targets, by set (resolve_serial.go):
	// computed from every serializable class, and again after a member edit.
	serial map[int32]serialKind
	// lambdas are the run's lambdas: a dispatch on an interface that an update
	// makes anew is matched against them (newLambdaDispatch).
	lambdas []lambdaRec
	reads   *valueReads
	// groups and fallbacks key the sets whose members a run computes from the
	// whole hierarchy, by set: the CHA dispatch groups (restricted or not), the
	// conservative fallback sets and the initialisation chains. An update after a
	// member edit computes them again (update_members.go). After updates a key may
	// have several sets: the probe's, for the methods visited again, and the old.
	groups    map[int32]dispatchKey
	fallbacks map[int32]fallbackKey
	// spec is the specification of the run: another one resolves dynamic sites
	// otherwise.
	spec *spec.File
	// specResolved says whether the run resolved the specification (and so set the
	// graph's Problems).
	specResolved bool
	// appNative says whether, at level 6, a native outside the JDK model was
	// reachable, so the NativeMethod node has level 2's public fallback.
	appNative bool
	// overrides says whether the run reached access overrides of the application or
	// its libraries (resolve_access.go), and so took several passes.
	overrides bool
	// env is what the run found of the system properties reachable code writes, and
	// those it took as unset (Correct-Env, resolve_env.go); nil below.
	env *envState
}

// valueReads records what the value analyses of a run read (values.Observer), by
// reader: the method whose dynamic site a value analysis was answering for. When
// some of those reads change, Update visits the readers again.
type valueReads struct {
	reader  int32                // the method whose site is being resolved
	facts   map[int32][]int32    // method whose facts were read -> readers
	callers map[callKey][]int32  // method whose callers were looked up -> readers
	reusers map[int32][]int32    // reader -> readers that reused results computed for it
	seen    map[readKey]struct{} // (what, reader) pairs recorded, against duplicates
}

// callKey is a method's name and descriptor: looking up the callers of a method
// depends on every call instruction naming them.
type callKey struct{ name, desc string }

// readKey is one recorded read: of a method's facts (id), of callers (call), or
// the reuse of a reader's results (id, reuse).
type readKey struct {
	id     int32
	call   callKey
	reuse  bool
	reader int32
}

func newValueReads() *valueReads {
	return &valueReads{reader: -1, facts: map[int32][]int32{}, callers: map[callKey][]int32{},
		reusers: map[int32][]int32{}, seen: map[readKey]struct{}{}}
}

// first reports whether k is recorded for the first time.
func (r *valueReads) first(k readKey) bool {
	if _, ok := r.seen[k]; ok {
		return false
	}
	r.seen[k] = struct{}{}
	return true
}

func (r *valueReads) ReadFacts(m *hierarchy.Method) {
	if r.first(readKey{id: m.ID, reader: r.reader}) {
		r.facts[m.ID] = append(r.facts[m.ID], r.reader)
	}
}

func (r *valueReads) ReadCallers(m *hierarchy.Method) {
	k := callKey{m.Name, m.Desc}
	if r.first(readKey{id: -1, call: k, reader: r.reader}) {
		r.callers[k] = append(r.callers[k], r.reader)
	}
}

func (r *valueReads) Question() int32 { return r.reader }

func (r *valueReads) Reused(q int32) {
	if q != r.reader && r.first(readKey{id: q, reuse: true, reader: r.reader}) {
		r.reusers[q] = append(r.reusers[q], r.reader)
	}
}

// readers returns the readers whose answers may depend on the facts of the methods
// in ms (before or after a change) or on the callers of the methods they name,
// following reuse from reader to reader; n bounds the method IDs.
func (r *valueReads) readers(n int, ms []*facts.Method, ids []int32) callgraph.Bitset {
	out := callgraph.NewBitset(n)
	var queue []int32
	add := func(rs []int32) {
		for _, x := range rs {
			if x >= 0 && out.Add(x) {
				queue = append(queue, x)
			}
		}
	}
	for _, id := range ids {
		add(r.facts[id])
	}
	for _, f := range ms {
		for _, k := range namedMethods(f) {
			add(r.callers[k])
		}
	}
	for len(queue) > 0 {
		x := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		add(r.reusers[x])
	}
	return out
}

// union returns the reads of r and o together (those of an update's probe added to
// its run's), sharing r when o read nothing new: the readers visited again mostly
// read what they read before, and r may hold a whole JDK's reads.
func (r *valueReads) union(o *valueReads) *valueReads {
	adds := false
	for k := range o.seen {
		if _, ok := r.seen[k]; !ok {
			adds = true
			break
		}
	}
	if !adds {
		return r
	}
	u := &valueReads{reader: -1, facts: maps.Clone(r.facts), callers: maps.Clone(r.callers),
		reusers: maps.Clone(r.reusers), seen: maps.Clone(r.seen)}
	for k := range o.seen {
		if !u.first(k) {
			continue
		}
		switch {
		case k.reuse:
			u.reusers[k.id] = append(slices.Clip(u.reusers[k.id]), k.reader)
		case k.id < 0:
			u.callers[k.call] = append(slices.Clip(u.callers[k.call]), k.reader)
		default:
			u.facts[k.id] = append(slices.Clip(u.facts[k.id]), k.reader)
		}
	}
	return u
}

// growCond adds a member to a conditional set, justified by the method from.
func (s *solver) growCond(set, id, from int32) {
	m := s.cond[set]
	if m == nil {
		m = map[int32]int32{}
		s.cond[set] = m
	}
	if _, ok := m[id]; !ok {
		m[id] = from
	}
	s.condFrom = from
	s.grow(set, id)
	s.condFrom = -1
}

// trace returns what Update needs of the finished run.
func (s *solver) trace() *Trace {
	t := &Trace{cond: s.cond, parent: s.parent, condOf: s.condOf, handleSet: -1, ifaceLambda: map[dispatchKey]int32{}, reads: s.reads,
		specResolved: s.api.spec != nil, spec: s.opts.Spec, appNative: s.appNative, fallbacks: bySet(s.fallback), groups: map[int32]dispatchKey{}}
	if s.api.handles != nil {
		t.handleSet = s.api.handles.set
	}
	t.serial = bySet(s.serialSets())
	t.lambdas = s.lambdaRecs(nil, func(int32) bool { return true })
	for _, ss := range s.api.spun {
		t.spunSets = append(t.spunSets, ss.set)
	}
	slices.Sort(t.spunSets)
	record := func(g *group) {
		t.groups[g.set] = g.key
		if g.declared.IsInterface() {
			t.ifaceLambda[g.key] = g.lambdaSet
		}
	}
	for _, g := range s.plain {
		record(g)
	}
	for _, g := range s.groups {
		record(g)
	}
	return t
}

// lambdaRec is a lambda of a run (see lambda) by IDs, as its trace keeps it.
type lambdaRec struct {
	iface       int32 // class ID
	name        string
	descs       []string
	targets     []int32
	creator, pc int32
	everywhere  bool
}

// lambda returns the lambda r records, in hierarchy h.
func (r *lambdaRec) lambda(h *hierarchy.Hierarchy) *lambda {
	return &lambda{iface: h.Classes()[r.iface], name: r.name, descs: r.descs, targets: r.targets, creator: r.creator, pc: r.pc, everywhere: r.everywhere}
}

// lambdaRecs returns kept and the solver's lambdas whose creators keep accepts,
// sorted by creator and instruction.
func (s *solver) lambdaRecs(kept []lambdaRec, keep func(creator int32) bool) []lambdaRec {
	out := kept
	for _, ls := range s.lambdas {
		for _, l := range ls {
			if keep(l.creator) {
				out = append(out, lambdaRec{iface: l.iface.ID, name: l.name, descs: l.descs, targets: slices.Clone(l.targets),
					creator: l.creator, pc: l.pc, everywhere: l.everywhere})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b lambdaRec) int {
		return cmp.Or(cmp.Compare(a.creator, b.creator), cmp.Compare(a.pc, b.pc), strings.Compare(a.name, b.name))
	})
	return out
}

// inheritLambdaSet gives a dispatch group of a probe the lambda targets the group had
// in the run being updated, whose lambdas the update leaves as they were.
func (s *solver) inheritLambdaSet(g *group) {
	old, ok := s.inherit.Trace.ifaceLambda[g.key]
	switch {
	case !ok || old < 0:
		s.newLambdaDispatch(g)
	default:
		g.lambdaSet = s.addSet(append([]int32(nil), s.inherit.Graph.Sets[old]...))
		s.lambdaDispatch(g.lambdaSet)
		s.live[g.lambdaSet] = true
		s.cond[g.lambdaSet] = map[int32]int32{}
		s.inherited[g.lambdaSet] = old
		// The set outlives its dispatches: when an update dropped every caller, it
		// dropped the members that only they reached, and the set (which updates
		// keep as a new run would make it) reaches them again.
		for _, id := range s.sets[g.lambdaSet] {
			if !s.reach.Has(id) {
				from, ok := s.inherit.Trace.cond[old][id]
				if !ok {
					from = -1
				}
				s.condFrom = from
				s.reachable(id)
				s.condFrom = -1
			}
		}
	}
}

// sameSpec reports whether two specifications resolve every site alike: the same
// entries, read from a file of the same name (problems name it).
func sameSpec(a, b *spec.File) bool {
	entries := func(f *spec.File) []spec.Entry {
		if f == nil {
			return nil
		}
		return f.Entries
	}
	name := func(f *spec.File) string {
		if f == nil || len(f.Entries) == 0 {
			return ""
		}
		return f.Name
	}
	return name(a) == name(b) && reflect.DeepEqual(entries(a), entries(b))
}

// bySet inverts a map of sets by key.
func bySet[K comparable](sets map[K]int32) map[int32]K {
	out := make(map[int32]K, len(sets))
	for k, set := range sets {
		out[set] = k
	}
	return out
}
