package analysis

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/cha"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Previous is a run that Update starts from: the analyzer of the program before the
// change (still open), and the graph and trace of its run.
type Previous struct {
	Analyzer *Analyzer
	Graph    *callgraph.Graph
	Trace    *Trace
}

// NotUpdatable is Update's error when it cannot prove an in-place update equal to a
// new run; Why says which condition failed. The caller runs instead.
type NotUpdatable struct{ Why string }

func (e *NotUpdatable) Error() string { return "analysis: no update in place: " + e.Why }

func notUpdatable(format string, args ...any) error {
	return &NotUpdatable{Why: fmt.Sprintf(format, args...)}
}

// Update returns the graph (and trace) that a.RunTrace(ctx, opts) would return,
// computed from prev, a run with the same options (but for the specification) over a
// program that differs from a's only in the bytes of the classes named in changed,
// and in classes that only one of them has. It re-visits only the reachable methods
// whose visit may now differ, and visits the methods that only their new code
// reaches, replaces their edges and sites in prev's graph, and proves the result
// equal to a new run's:
//
//   - only CHA is supported;
//   - when every class keeps its header (members, supertypes, flags, nesting) and the
//     specification is the same, method IDs, resolution and CHA dispatch are as
//     before, and the methods visited again are the reachable ones of the changed
//     classes and the readers below. Otherwise (a member edit: classes or members
//     added or removed, headers changed; or another specification) the graph and
//     trace are first mapped to the new IDs (by class, name and descriptor; what is
//     gone is dropped), and also visited again are: every reachable method whose code
//     names a changed class or a subtype of one (its calls resolve, dispatch and
//     initialise through them), the callers of the dynamic sites whose code, or the
//     code their value analyses read, mentions a changed class (readsDelta) or whose
//     value analyses looked up the callers of a method a changed class names (all
//     of them when the specification changed or names a changed class), the
//     NativeMethod node, and the callers of a set that lost a member. The sets a run computes from the whole hierarchy
//     (CHA dispatch groups on a supertype of a changed class, fallback sets,
//     initialisation chains) are computed again in place for the callers not
//     visited again, and what they gain is reached; the entry points are a new
//     run's. When a serializable class changed, the sets of (de)serialization
//     targets are computed again too (renewSerial) and the JDK's sites that
//     serialProxyResolver answers from every serializable class are visited again.
//     At level 6 the NativeMethod node, visited again, has the public fallback
//     while a native outside the JDK model that the edit kept is reachable, and
//     gains it when the probe reaches one. In library mode the entry points
//     follow the members, and the callers of a dispatch whose client-added targets
//     (libraryDispatch) a new run computes otherwise are visited again. A member
//     edit is declined for interfaces and JDK classes, for more than maxMemberEdit
//     classes, when a method reference's dispatch targets change, and when a
//     method justifying a method-handle target is removed;
//   - the changed methods create again the method handles whose first
//     justification they are. A lambda the probe meets grows, in place, the lambda
//     sets of the dispatches of methods it does not visit (update_lambdas.go), with
//     the default methods of its interface when the graph had no lambda of it; a
//     dispatch it matches that had no lambda set has all its callers visited again,
//     and the probe makes the set; a dispatch of the probe that the run did not
//     make, or made without a lambda set, is matched against the run's lambdas
//     (Trace.lambdas) whose creators it does not visit. The sets the probe inherits
//     (its own dispatches' lambda sets, the method-handle set) may only grow, in
//     place too, but for the lambda targets whose creators no longer create them:
//     another creator of the run's lambdas justifies them, or they leave the set;
//   - the methods no longer reachable from the entry points over the new edges
//     (where a member of a conditional set counts only once a method justifying it
//     is reachable: see Trace) justify no method-handle target; they are dropped
//     with their edges and sites, and the lambda targets they alone justified
//     leave their sets;
//   - a property the graph took as unset that the probe finds written was read
//     in dynamic sites only, whose methods the probe visits again; a write that
//     the probe takes away (its every writer visited again, none making it) was
//     read as written in dynamic sites only, whose methods a second probe visits
//     too, and so was a write whose writers are all dropped (the second probe
//     starts without it);
//   - no value analysis read a changed method's facts or looked up the callers of a
//     method that a changed method calls, before or after the change, unless its
//     reader is visited again.
//
// Under these conditions the old fixpoint, with the contributions of the methods
// visited again replaced and the new methods' added, is closed under the new
// program's rules, and nothing in it is reachable only through a removed edge, so it
// is the least fixpoint: the new run's graph (up to the numbering of sets and
// reasons). Otherwise the error is a *NotUpdatable.
func (a *Analyzer) Update(ctx context.Context, opts Options, prev Previous, changed []string) (*callgraph.Graph, *Trace, error) {
	opts, err := normalize(opts)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case !opts.Algorithm.UpdatesInPlace():
		return nil, nil, notUpdatable("the algorithm is %s", opts.Algorithm)
	case prev.Analyzer == nil || prev.Graph == nil || prev.Trace == nil:
		return nil, nil, notUpdatable("no previous run with a trace")
	case prev.Graph.Algorithm != opts.Algorithm:
		return nil, nil, notUpdatable("the previous run is of another algorithm (%s)", prev.Graph.Algorithm)
	case prev.Graph.Level != opts.Level:
		return nil, nil, notUpdatable("the previous run is at another level (%s)", prev.Graph.Level.Title())
	case prev.Trace.overrides:
		// An override left behind may narrow sites anywhere.
		return nil, nil, notUpdatable("the program overrides access checks (setAccessible, privateLookupIn)")
	}
	oh := prev.Analyzer.h
	if why := sameShape(oh, a.h, changed); why != "" || !sameSpec(prev.Trace.spec, opts.Spec) {
		// Classes or members were added or removed, or headers changed; or the
		// specification changed, which only dynamic sites read.
		return a.updateMembers(ctx, opts, prev, changed)
	}
	a.inheritValuesIndex(prev.Analyzer, changed)
	visit, inD, why := a.changedMethods(prev, changed)
	if why != "" {
		return nil, nil, notUpdatable("%s", why)
	}
	return a.revisit(ctx, opts, prev, changed, visit, inD, nil)
}

// revisit is Update once the change is known to be one of method bodies that
// nothing else read, or a member edit made into one (updateMembers, me): it visits
// the methods of visit again (the reachable ones of the changed classes, inD) and
// those that only they reach now, and patches prev's graph. A probe that finds a
// property write gone asks for the methods whose sites read it as written: the
// probe starts again visiting those too.
func (a *Analyzer) revisit(ctx context.Context, opts Options, prev Previous, classes []string, visit []*hierarchy.Method, inD callgraph.Bitset, me *memberEdit) (*callgraph.Graph, *Trace, error) {
	gone := map[envWrite]bool{}
	for {
		// A probe adds to the set it is given (callers it visits again): each
		// starts from the methods to visit.
		g, t, err := a.revisitOnce(ctx, opts, prev, classes, visit, slices.Clone(inD), me, gone)
		var more *readersToVisit
		if !errors.As(err, &more) {
			return g, t, err
		}
		for _, id := range more.ids {
			if inD.Add(id) {
				visit = append(visit, a.h.Methods()[id])
			}
		}
		for _, w := range more.gone {
			gone[w] = true
		}
	}
}

// readersToVisit stops a probe that found property writes gone: the methods whose
// dynamic sites read them as written must be visited too, and (gone) the writes
// whose writers are all unreachable, which the probe took as made, must not be.
type readersToVisit struct {
	ids  []int32
	gone []envWrite
}

func (r *readersToVisit) Error() string {
	return fmt.Sprintf("analysis: %d methods read a property write the update takes away", len(r.ids))
}

// revisitOnce is one probe of revisit, without the property writes of gone.
func (a *Analyzer) revisitOnce(ctx context.Context, opts Options, prev Previous, classes []string, visit []*hierarchy.Method, inD callgraph.Bitset, me *memberEdit, gone map[envWrite]bool) (*callgraph.Graph, *Trace, error) {
	s := newSolver(ctx, a, opts)
	s.internStd()
	s.oracle = cha.New(a.h)
	s.reach = append(callgraph.Bitset(nil), prev.Graph.Reachable...)
	s.inherit = &prev
	s.inherited = map[int32]int32{}
	s.changed = inD
	s.changedClasses = make(map[string]bool, len(classes))
	for _, c := range classes {
		s.changedClasses[c] = true
	}
	s.parent, s.condOf = slices.Clone(prev.Trace.parent), slices.Clone(prev.Trace.condOf)
	s.appNative, s.nativeDone = prev.Trace.appNative, true
	if me != nil {
		s.appNative = me.appNative && s.jdk != nil
	}
	// The probe starts without the writes of properties that the methods it
	// visits may no longer make; each must be found again (below).
	var dropped []envWrite
	if s.env = s.newEnvRun(nil); s.env != nil && prev.Trace.env != nil {
		var seed *envState
		seed, dropped = prev.Trace.env.seed(inD, gone)
		s.env = s.newEnvRun(seed)
		s.env.prev, s.env.prevOrphans = prev.Trace.env.takenUnset(), prev.Trace.env.orphans
	}
	for _, m := range visit {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		s.cur = m.ID
		s.visit(m)
	}
	if me != nil {
		if me.native {
			s.cur = s.native
			s.visitNative()
		}
		s.cur = -1
		for _, id := range me.seeds {
			s.reachable(id)
		}
	}
	// Methods that only the new code reaches are visited as a run would: the
	// conditions below keep their effects to their own bundles and sites.
	if err := s.solve(); errors.Is(err, errEnvWritten) {
		return nil, nil, notUpdatable("%s", cmp.Or(s.unsupported, "a changed method writes a system property the graph took as unset"))
	} else if err != nil {
		return nil, nil, err
	}
	if s.env != nil {
		// A write the probe did not make again is gone: the sites that read its
		// keys as written resolve otherwise, so their methods are visited too.
		var more []int32
		for _, w := range dropped {
			if s.env.has(w) {
				continue
			}
			readers, orphan := prev.Trace.env.readersAsWritten(w)
			if orphan {
				return nil, nil, notUpdatable("a changed method no longer writes %s, which was read outside a dynamic site", w)
			}
			for _, r := range readers {
				if s.reach.Has(r) && !s.changed.Has(r) && !slices.Contains(more, r) {
					more = append(more, r)
				}
			}
		}
		if len(more) > 0 {
			return nil, nil, &readersToVisit{ids: more}
		}
	}
	if opts.Spec != nil && len(opts.Spec.Entries) > 0 {
		s.specIndex()
	}
	switch {
	case s.unsupported != "":
		return nil, nil, notUpdatable("%s", s.unsupported)
	case s.handlesKept(prev.Trace, inD) != "":
		return nil, nil, notUpdatable("%s", s.handlesKept(prev.Trace, inD))
	case s.api.spun != nil:
		return nil, nil, notUpdatable("a changed method spins a CGLIB subclass or calls MethodProxy.invokeSuper")
	case me == nil && s.api.spec != nil && !slices.Equal(s.problems, prev.Graph.Problems) && (prev.Trace.specResolved || len(s.problems) > 0):
		// (After a member edit every dynamic site is visited again, and the problems
		// are those of the whole specification, resolved anew.)
		return nil, nil, notUpdatable("the specification's problems changed")
	}
	hint := a.bundleHint.Load()
	pg := s.graph()
	a.bundleHint.Store(hint)
	// The lambda sets of dispatches the probe did not visit, with the lambdas it met.
	old, t := prev.Graph, *prev.Trace
	sets, cond, grew, why := s.grownSets(old, pg, t.cond, inD)
	if why != "" {
		return nil, nil, notUpdatable("%s", why)
	}
	if grew {
		old = &callgraph.Graph{Level: old.Level, Algorithm: old.Algorithm, NumNodes: old.NumNodes, Native: old.Native,
			Reachable: old.Reachable, Entries: old.Entries, Bundles: old.Bundles, Sets: sets, Reasons: old.Reasons,
			Sites: old.Sites, Problems: old.Problems}
		t.cond = cond
	}
	g, setMap, err := patch(old, pg, s.inherited, inD, s.reach)
	if err != nil {
		return nil, nil, err
	}
	t.parent, t.condOf = s.parent, s.condOf
	if me != nil {
		g.Entries, g.Problems = me.entries, s.problems
	}
	fresh := s.freshLambdaSets(&t, setMap)
	// The lambdas of the updated graph: those of the methods the probe visited are
	// the ones it met.
	t.lambdas = s.lambdaRecs(slices.DeleteFunc(slices.Clone(prev.Trace.lambdas), func(r lambdaRec) bool {
		return !g.Reachable.Has(r.creator) || s.changed.Has(r.creator)
	}), g.Reachable.Has)
	// A grown lambda set's new members were reached from their creators, not from
	// the set's callers, and so were a fresh one's: their derivations are searched.
	if me != nil || grew || fresh || !derivationsKept(g, old, pg, s.inherited, inD, &t) {
		parent, condOf, reached, ok := grounded(g, &t, a.h.Methods())
		// A lambda target whose justifying method is no longer reached may have
		// another creator that is: with it, the search may reach more.
		for ok && reached.Count() != g.Reachable.Count() && s.rejustify(&t, reached) {
			parent, condOf, reached, ok = grounded(g, &t, a.h.Methods())
		}
		if !ok {
			return nil, nil, notUpdatable("a target through a lambda or method handle has no justification")
		}
		if reached.Count() != g.Reachable.Count() {
			unjustified(g, &t, reached)
			if why := unprunable(g, reached, &t, s.appNative, a.h); why != "" {
				return nil, nil, notUpdatable("%s", why)
			}
			g = prune(g, reached)
			t.lambdas = slices.DeleteFunc(t.lambdas, func(r lambdaRec) bool { return !reached.Has(r.creator) })
		}
		t.parent, t.condOf = parent, condOf
	}
	emptyLambdaSets(g, &t)
	if opts.Level.RespectsEncapsulation() {
		for _, o := range a.overrideCalls() {
			if g.Reachable.Has(o.caller.ID) {
				// A new run would take another pass with it (RunTrace).
				return nil, nil, notUpdatable("the change reaches an access override (%s)", o.where)
			}
		}
	}
	t.reads = prev.Trace.reads.union(s.reads)
	if s.env != nil {
		t.env = s.env.union(prev.Trace.env, s.changed, gone)
		var more readersToVisit
		for w, by := range t.env.by {
			// A writer left unreachable writes nothing; a later update must not
			// keep the write for it.
			live := slices.DeleteFunc(by, func(x int32) bool { return x >= 0 && !g.Reachable.Has(x) })
			t.env.by[w] = live
			if len(live) > 0 {
				continue
			}
			// The probe took the write as made: the sites that read its keys as
			// written, the probe's and the run's, resolve otherwise without it.
			readers, orphan := t.env.readersAsWritten(w)
			if orphan || gone[w] {
				// (gone: the probe made it again, through a method it then found
				// unreachable, and its sites read it as written.)
				return nil, nil, notUpdatable("the method that writes %s is no longer reachable", w)
			}
			more.gone = append(more.gone, w)
			for _, r := range readers {
				if g.Reachable.Has(r) && !slices.Contains(more.ids, r) {
					more.ids = append(more.ids, r)
				}
			}
		}
		if len(more.gone) > 0 {
			return nil, nil, &more
		}
	}
	t.specResolved = prev.Trace.specResolved || s.api.spec != nil
	t.spec = opts.Spec
	t.appNative = s.appNative
	probeGroups := make(map[dispatchKey]int32, len(s.plain)+len(s.groups))
	for _, gr := range s.plain {
		probeGroups[gr.key] = gr.set
	}
	for _, gr := range s.groups {
		probeGroups[gr.key] = gr.set
	}
	t.groups = withProbeSets(prev.Trace.groups, probeGroups, setMap)
	t.fallbacks = withProbeSets(prev.Trace.fallbacks, s.fallback, setMap)
	t.serial = withProbeSets(prev.Trace.serial, s.serialSets(), setMap)
	return g, &t, nil
}

// withProbeSets returns old (keys of sets of the updated graph, by set) with the
// probe's sets (by key) that the patched graph uses, at its numbers (setMap).
func withProbeSets[K comparable](old map[int32]K, probe map[K]int32, setMap map[int32]int32) map[int32]K {
	var out map[int32]K
	for k, ps := range probe {
		j, ok := setMap[ps]
		if !ok {
			continue
		}
		if out == nil {
			out = make(map[int32]K, len(old)+len(probe))
			maps.Copy(out, old)
		}
		out[j] = k
	}
	if out == nil {
		return old
	}
	return out
}

// sameShape reports why the hierarchies differ in more than method bodies ("" when
// they do not): the classes and their order, so that every ID is the same, and the
// headers of the changed classes (classfile.SameHeader). Hierarchies that share their
// classes (index.Rebuild after a change of bodies) differ at most in the latter.
func sameShape(oh, nh *hierarchy.Hierarchy, changed []string) string {
	oc, nc := oh.Classes(), nh.Classes()
	if len(oc) != len(nc) || len(oh.Methods()) != len(nh.Methods()) {
		return "classes or members were added or removed"
	}
	if len(nc) > 0 && &oc[0] != &nc[0] {
		for i, c := range nc {
			if o := oc[i]; o.Name != c.Name || o.Phantom != c.Phantom || len(o.Methods) != len(c.Methods) {
				return "the classes changed order or shape"
			}
		}
	}
	for _, n := range changed {
		c, o := nh.Class(n), oh.Class(n)
		if c == nil || o == nil || c.Phantom || o.Phantom {
			return "class " + n + " was added or removed"
		}
		if !classfile.SameHeader(oh.File(o), nh.File(c)) {
			return "the header of " + n + " changed"
		}
	}
	return ""
}

// changedMethods returns the methods to visit again and all of them as a set (inD),
// or why the change is not one Update handles (a changed method creates other
// lambdas). They are the reachable methods of the changed classes and the readers
// (valueReads) whose dynamic sites a value analysis resolved from something the
// change touched: a changed method's facts, or the callers of a method that a
// changed method names before or after the change. The readers' code is the same,
// but their sites may resolve to other targets now.
func (a *Analyzer) changedMethods(prev Previous, changed []string) (visit []*hierarchy.Method, inD callgraph.Bitset, why string) {
	n := len(a.h.Methods()) + 1
	inD = callgraph.NewBitset(n)
	var touched []*facts.Method
	var ids []int32
	for _, name := range changed {
		c, o := a.h.Class(name), prev.Analyzer.h.Class(name)
		for i, m := range c.Methods {
			inD.Add(m.ID)
			nf, of := a.prog.Facts(m), prev.Analyzer.prog.Facts(o.Methods[i])
			touched, ids = append(touched, nf, of), append(ids, m.ID)
			if !prev.Graph.Reachable.Has(m.ID) {
				continue
			}
			visit = append(visit, m)
		}
	}
	ms := a.h.Methods()
	prev.Trace.reads.readers(n, touched, ids).ForEach(func(id int32) {
		if int(id) < len(ms) && prev.Graph.Reachable.Has(id) && inD.Add(id) {
			visit = append(visit, ms[id])
		}
	})
	return visit, inD, ""
}

// namedMethods returns the methods a method's code names: by call instructions and by
// method-handle constants of its invokedynamic instructions.
func namedMethods(f *facts.Method) []callKey {
	if f == nil {
		return nil
	}
	var out []callKey
	for i := range f.Calls {
		c := &f.Calls[i]
		if c.Indy == nil {
			out = append(out, callKey{c.Ref.Name, c.Ref.Desc})
			continue
		}
		for _, arg := range c.Indy.Args {
			if arg.Kind == facts.ConstMethodHandle {
				out = append(out, callKey{arg.Ref.Name, arg.Ref.Desc})
			}
		}
	}
	return out
}

// patch returns old with the bundles and sites of the methods in inD replaced by
// those of the probe's graph pg, and the numbers in it of the probe's sets that it
// uses. Sets inherited from old (probe set -> old set) must have kept their members.
func patch(old, pg *callgraph.Graph, inherited map[int32]int32, inD, reach callgraph.Bitset) (*callgraph.Graph, map[int32]int32, error) {
	for ps, os := range inherited {
		if !slices.Equal(pg.Sets[ps], old.Sets[os]) {
			return nil, nil, notUpdatable("the lambda or method-handle targets of a changed method changed")
		}
	}
	sets := slices.Clip(old.Sets)
	setMap := make(map[int32]int32, len(pg.Sets))
	mapSet := func(i int32) int32 {
		if i < 0 {
			return i
		}
		if j, ok := setMap[i]; ok {
			return j
		}
		j, ok := inherited[i]
		if !ok {
			j = int32(len(sets))
			sets = append(sets, pg.Sets[i])
		}
		setMap[i] = j
		return j
	}
	reasons := slices.Clip(old.Reasons)
	reasonIdx := make(map[callgraph.Reason]int32, len(reasons))
	for i, r := range reasons {
		reasonIdx[r] = int32(i)
	}
	mapReason := func(i int32) int32 {
		r := pg.Reasons[i]
		if j, ok := reasonIdx[r]; ok {
			return j
		}
		reasonIdx[r] = int32(len(reasons))
		reasons = append(reasons, r)
		return int32(len(reasons) - 1)
	}
	// Both bundle lists are sorted by caller: copy the old one in runs between the
	// changed callers, whose bundles are the probe's.
	bundles := make([]callgraph.Bundle, 0, len(old.Bundles)+len(pg.Bundles))
	ob, nb := old.Bundles, pg.Bundles
	for len(ob) > 0 || len(nb) > 0 {
		if len(nb) > 0 && (len(ob) == 0 || nb[0].Caller <= ob[0].Caller) {
			c := nb[0].Caller
			for len(nb) > 0 && nb[0].Caller == c {
				bundles = append(bundles, remap(nb[0], mapSet, mapReason))
				nb = nb[1:]
			}
			ob = ob[callerEnd(ob, c):]
			continue
		}
		if inD.Has(ob[0].Caller) {
			ob = ob[callerEnd(ob, ob[0].Caller):]
			continue
		}
		// Copy up to the next changed caller or the next probe bundle.
		end := len(ob)
		if len(nb) > 0 {
			end = callerStart(ob, nb[0].Caller)
		}
		if i := nextChanged(ob[:end], inD); i < end {
			end = i
		}
		bundles = append(bundles, ob[:end]...)
		ob = ob[end:]
	}
	var sites []callgraph.Site
	for _, st := range old.Sites {
		if !inD.Has(st.Caller) {
			sites = append(sites, st)
		}
	}
	for _, st := range pg.Sites {
		st.Targets = mapSet(st.Targets)
		sites = append(sites, st)
	}
	sortSites(sites)
	problems := old.Problems
	if pg.Problems != nil {
		problems = pg.Problems
	}
	return &callgraph.Graph{
		Level:     old.Level,
		Algorithm: old.Algorithm,
		NumNodes:  old.NumNodes,
		Native:    old.Native,
		Reachable: reach,
		Entries:   old.Entries,
		Bundles:   bundles,
		Sets:      sets,
		Reasons:   reasons,
		Sites:     sites,
		Problems:  problems,
	}, setMap, nil
}

// callerStart returns the index of the first bundle of bs (sorted by caller) whose
// caller is at least c; callerEnd that of the first whose caller is above c.
func callerStart(bs []callgraph.Bundle, c int32) int {
	i, _ := slices.BinarySearchFunc(bs, c, func(b callgraph.Bundle, c int32) int { return cmp.Compare(b.Caller, c) })
	return i
}

func callerEnd(bs []callgraph.Bundle, c int32) int { return callerStart(bs, c+1) }

// nextChanged returns the index of the first bundle of bs whose caller is in inD, or
// len(bs). The changed methods are few: look each up rather than test every bundle.
func nextChanged(bs []callgraph.Bundle, inD callgraph.Bitset) int {
	end := len(bs)
	if end == 0 {
		return 0
	}
	lo, hi := bs[0].Caller, bs[end-1].Caller
	for w := int(lo) / 64; w <= int(hi)/64 && w < len(inD); w++ {
		for bits := inD[w]; bits != 0; bits &= bits - 1 {
			id := int32(w*64 + tz(bits))
			if id >= lo && id <= hi {
				if i := callerStart(bs, id); i < end && bs[i].Caller == id {
					return i
				}
			}
		}
	}
	return end
}

func tz(x uint64) int { return bits.TrailingZeros64(x) }

func remap(b callgraph.Bundle, set, reason func(int32) int32) callgraph.Bundle {
	b.Set = set(b.Set)
	b.Reason = reason(b.Reason)
	return b
}

// derivationsKept reports whether the derivations of the previous run (Trace.parent
// and condOf) all hold in the updated graph, which then needs no search: the changed
// methods still bundle to every conditional set they bundled to, added nothing to the
// method-handle set or CGLIB's invokeSuper sets, and still have an edge to every
// method they reached first.
// Every other edge of a derivation is unchanged, and a node's derivation uses only
// nodes reached before it, so by induction every node stays reachable.
func derivationsKept(g, old, pg *callgraph.Graph, inherited map[int32]int32, inD callgraph.Bitset, t *Trace) bool {
	for _, set := range append([]int32{t.handleSet}, t.spunSets...) {
		if set < 0 {
			continue
		}
		for _, from := range t.cond[set] {
			if inD.Has(from) {
				return false
			}
		}
	}
	targets := map[int32]map[int32]bool{} // changed caller -> its new unconditional targets
	for i := 0; i < len(pg.Bundles); {
		c := pg.Bundles[i].Caller
		uncond, conds := map[int32]bool{}, map[int32]bool{}
		for ; i < len(pg.Bundles) && pg.Bundles[i].Caller == c; i++ {
			b := pg.Bundles[i]
			if o, ok := inherited[b.Set]; ok {
				conds[o] = true
				continue
			}
			for _, id := range pg.Sets[b.Set] {
				uncond[id] = true
			}
		}
		targets[c] = uncond
		for _, b := range old.Callees(c) {
			if _, ok := t.cond[b.Set]; ok && !conds[b.Set] {
				return false
			}
		}
	}
	kept := true
	g.Reachable.ForEach(func(n int32) {
		if p := t.parent[n]; kept && p >= 0 && inD.Has(p) && t.condOf[n] < 0 && !targets[p][n] {
			kept = false
		}
	})
	return kept
}

// roots are the nodes of g a run reaches with no caller: its entry points and, at a
// level that models the JDK (level 6), the NativeMethod node, the JVM itself
// (Analyzer.run), whose upcalls derive from nothing else.
func roots(g *callgraph.Graph) []int32 {
	if g.Level.ModelsJDK() {
		return append(slices.Clip(g.Entries), g.Native)
	}
	return g.Entries
}

// grounded searches the derivations of every reachable node of g from its roots
// over its bundles, where a member of a conditional set (t.cond) counts only
// once the method justifying it is reached. It returns them (as in Trace), the nodes
// that have one, and whether every member of a conditional set met had a
// justification in t.
//
// At level 6 the NativeMethod node's public fallback (nativeFallback) counts only
// once a native outside the JDK model (of ms) is reached otherwise: a run opens it
// for such a native, which it would otherwise justify itself.
func grounded(g *callgraph.Graph, t *Trace, ms []*hierarchy.Method) (parent, condOf []int32, reached callgraph.Bitset, ok bool) {
	first := make([]int32, g.NumNodes+1)
	for _, b := range g.Bundles {
		first[b.Caller+1]++
	}
	for i := 1; i <= g.NumNodes; i++ {
		first[i] += first[i-1]
	}
	parent, condOf = make([]int32, g.NumNodes), make([]int32, g.NumNodes)
	reached = callgraph.NewBitset(g.NumNodes)
	setDone := callgraph.NewBitset(len(g.Sets))
	conditional := callgraph.NewBitset(len(g.Sets))
	for set := range t.cond {
		conditional.Add(set)
	}
	type member struct{ id, by int32 }
	parked := map[int32][]member{} // justifying method -> members waiting for it
	waiting := callgraph.NewBitset(g.NumNodes)
	var queue []int32
	fallback := int32(-1) // the reason of the NativeMethod node's public fallback, at level 6
	if g.Level.ModelsJDK() {
		r := nativeReason
		r.Fallback = g.Level.FallbackLevel()
		if i := slices.Index(g.Reasons, r); i >= 0 {
			fallback = int32(i)
		}
	}
	appNative := false
	var deferred []int32 // sets of the fallback, until appNative
	var add func(id, by, cond int32)
	add = func(id, by, cond int32) {
		if !reached.Add(id) {
			return
		}
		parent[id], condOf[id] = by, cond
		queue = append(queue, id)
		if !appNative && int(id) < len(ms) && ms[id].IsNative() && ms[id].Class.Origin != hierarchy.JDK {
			appNative = true
			for _, set := range deferred {
				if setDone.Add(set) {
					for _, m := range g.Sets[set] {
						add(m, g.Native, -1)
					}
				}
			}
		}
		if waiting.Has(id) {
			ws := parked[id]
			delete(parked, id)
			for _, w := range ws {
				add(w.id, w.by, id)
			}
		}
	}
	for _, e := range roots(g) {
		add(e, -1, -1)
	}
	missing := false
	for len(queue) > 0 {
		n := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, b := range g.Bundles[first[n]:first[n+1]] {
			if n == g.Native && b.Reason == fallback && !appNative {
				deferred = append(deferred, b.Set)
				continue
			}
			if !setDone.Add(b.Set) {
				continue
			}
			if !conditional.Has(b.Set) {
				for _, id := range g.Sets[b.Set] {
					add(id, n, -1)
				}
				continue
			}
			cond := t.cond[b.Set]
			for _, id := range g.Sets[b.Set] {
				from, ok := cond[id]
				switch {
				case !ok:
					missing = true
				case from < 0 || reached.Has(from):
					add(id, n, from)
				default:
					parked[from] = append(parked[from], member{id, n})
					waiting.Add(from)
				}
			}
		}
	}
	return parent, condOf, reached, !missing && reached.SubsetOf(g.Reachable)
}

// unprunable reports why g cannot simply lose the nodes outside reached ("" when it
// can). A conditional set records one justifying method per member, the first a run
// met: once that method is gone, a new run might still have the member through
// another one, or not, and the set's contents would differ; so every justification
// must survive. At level 6 a native outside the JDK model opened the JVM node's
// public fallback, which a new run would not open if no such native remained.
func unprunable(g *callgraph.Graph, reached callgraph.Bitset, t *Trace, appNative bool, h *hierarchy.Hierarchy) string {
	for _, members := range t.cond {
		for _, from := range members {
			if from >= 0 && !reached.Has(from) {
				return "a method that justifies a lambda or method-handle target is no longer reachable"
			}
		}
	}
	if appNative {
		ms := h.Methods()
		gone := false
		g.Reachable.ForEach(func(id int32) {
			gone = gone || (!reached.Has(id) && int(id) < len(ms) && ms[id].IsNative())
		})
		if gone {
			return "a native method, which may have opened the JVM node's fallback, is no longer reachable"
		}
	}
	return ""
}

// prune returns g without the nodes outside reached: their bundles and sites go,
// and the sets stay (unreferenced ones are harmless, and the trace's set numbers stay
// valid).
func prune(g *callgraph.Graph, reached callgraph.Bitset) *callgraph.Graph {
	p := &callgraph.Graph{Level: g.Level, Algorithm: g.Algorithm, NumNodes: g.NumNodes, Native: g.Native,
		Reachable: reached, Entries: g.Entries, Sets: g.Sets, Reasons: g.Reasons, Problems: g.Problems,
		Bundles: make([]callgraph.Bundle, 0, len(g.Bundles))}
	for _, b := range g.Bundles {
		if reached.Has(b.Caller) {
			p.Bundles = append(p.Bundles, b)
		}
	}
	p.Sites = nil
	for _, st := range g.Sites {
		if reached.Has(st.Caller) {
			p.Sites = append(p.Sites, st)
		}
	}
	return p
}

// WithDefaults fills in the level and the algorithm that o leaves unset
// (DefaultLevel, DefaultAlgorithm).
func (o Options) WithDefaults() Options {
	o.Level = orDefault(o.Level, DefaultLevel)
	o.Algorithm = orDefault(o.Algorithm, DefaultAlgorithm)
	return o
}

// orDefault is v, or def when v is unset (its zero value).
func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// normalize fills in the defaults of opts and checks them.
func normalize(opts Options) (Options, error) {
	opts = opts.WithDefaults()
	if !opts.Level.Valid() {
		return opts, fmt.Errorf("invalid assumption level %d", opts.Level.Number())
	}
	if !opts.Algorithm.Valid() {
		return opts, fmt.Errorf("unknown algorithm %v (want one of %s)", opts.Algorithm, callgraph.AlgorithmChoices())
	}
	return opts, nil
}

// IsNotUpdatable reports whether err says an update in place was not possible.
func IsNotUpdatable(err error) bool {
	var nu *NotUpdatable
	return errors.As(err, &nu)
}
