package analysis

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/cha"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// maxMemberEdit bounds the classes a member edit may change for an update in place:
// beyond it (a library swapped, the JDK changed) a new run is as fast.
const maxMemberEdit = 256

// memberEdit is what revisit does besides visiting methods after a member edit: it
// visits the NativeMethod node again, makes reachable what the sets computed anew
// and the new entry points reach, and takes the new run's entry points.
type memberEdit struct {
	native  bool
	seeds   []int32
	entries []int32
	// appNative says whether, at level 6, a native of the application or its
	// libraries (outside the JDK model) that the edit kept is reachable: the
	// NativeMethod node, visited again, then has the public fallback.
	appNative bool
}

// updateMembers is Update for programs whose classes differ in more than method
// bodies: classes or members added or removed, headers changed. It maps prev's graph
// and trace to the new IDs (idMap) and makes the edit one that revisit handles: the
// methods visited again are those whose visit may now differ, and the sets a run
// computes from the whole hierarchy (CHA dispatch groups, fallback sets) are
// computed again in place, for the callers that are not visited again.
func (a *Analyzer) updateMembers(ctx context.Context, opts Options, prev Previous, changed []string) (*callgraph.Graph, *Trace, error) {
	oh, nh := prev.Analyzer.h, a.h
	delta, why := memberDelta(oh, nh, changed)
	if why != "" {
		return nil, nil, notUpdatable("%s", why)
	}
	ids := newIDMap(oh, nh)
	n := len(nh.Methods()) + 1
	g, lost := ids.graph(prev.Graph, n)
	tr, why := ids.trace(prev.Trace, n)
	if why != "" {
		return nil, nil, notUpdatable("%s", why)
	}
	if tr.groups == nil {
		return nil, nil, notUpdatable("the previous run's trace does not list its dispatch groups")
	}
	// Every name a changed class's members may be looked up through: the class and
	// its subtypes (which inherit its members), before and after the edit.
	below, above := map[string]bool{}, map[string]bool{}
	for name := range delta {
		for _, h := range []*hierarchy.Hierarchy{oh, nh} {
			c := h.Class(name)
			if c == nil {
				continue
			}
			h.AllSubtypes(c, func(s *hierarchy.Class) bool { below[s.Name] = true; return true })
			allSupertypes(c, func(s *hierarchy.Class) { above[s.Name] = true })
		}
		below[name], above[name] = true, true
	}

	if why := a.methodRefsKept(prev, tr, ids, above); why != "" {
		return nil, nil, notUpdatable("%s", why)
	}
	inD := callgraph.NewBitset(n)
	var visit []*hierarchy.Method
	native := false
	add := func(id int32) {
		if !g.Reachable.Has(id) || !inD.Add(id) {
			return
		}
		if id == g.Native {
			native = true
			return
		}
		visit = append(visit, nh.Methods()[id])
	}
	// The reachable methods of the changed classes, and every reachable method
	// whose code names a class whose members or supertypes changed (its calls may
	// resolve otherwise, its initialisations run other <clinit>s). The JDK's code
	// cannot name the application's classes (outsideJDK): its methods, most of a
	// graph, need not be read.
	skipJDK := outsideJDK(maps.Keys(below), oh, nh)
	g.Reachable.ForEach(func(id int32) {
		if id == g.Native {
			return
		}
		m := nh.Methods()[id]
		if delta[m.Class.Name] || !(skipJDK && m.Class.Origin == hierarchy.JDK) && namesAny(a.prog.Facts(m), below) {
			add(id)
		}
	})
	// Dynamic sites: what resolves them reads names in the code of their methods and
	// of the methods a value analysis read for them (string and class constants,
	// casts, calls whose dispatch it follows), the callers of methods, and the
	// specification. A site is visited again when any of those mention a changed
	// class or a supertype of one (readsDelta), or when the specification changed.
	strs := map[string]bool{}
	for name := range below {
		strs[name], strs[strings.ReplaceAll(name, "/", ".")] = true, true
	}
	mentions := func(id int32) bool {
		return id >= 0 && int(id) < len(nh.Methods()) && readsDelta(a.prog.Facts(nh.Methods()[id]), below, above, strs)
	}
	var read []int32
	for id := range tr.reads.facts {
		if mentions(id) {
			read = append(read, id)
		}
	}
	var touched []*facts.Method
	for name := range delta {
		for _, h := range []*hierarchy.Hierarchy{oh, nh} {
			an := a
			if h == oh {
				an = prev.Analyzer
			}
			if c := h.Class(name); c != nil {
				for _, m := range c.Methods {
					touched = append(touched, an.prog.Facts(m))
				}
			}
		}
	}
	readers := tr.reads.readers(n, touched, read)
	allSites := !sameSpec(prev.Trace.spec, opts.Spec) || specNames(opts, strs)
	for _, st := range g.Sites {
		if st.Feature != callgraph.FeatNative && (allSites || readers.Has(st.Caller) || mentions(st.Caller)) {
			add(st.Caller)
		}
	}
	add(g.Native) // its sets are the hierarchy's public members
	// (De)serialization reaches every serializable class: its sets are computed
	// again (renewSerial), and the JDK's sites that serialProxyResolver answers
	// from those classes are visited again.
	serialChanged := false
	for name := range delta {
		for _, h := range []*hierarchy.Hierarchy{oh, nh} {
			if c := h.Class(name); c != nil && !c.Phantom && serializable(h, c) {
				serialChanged = true
			}
		}
	}
	if serialChanged {
		for _, st := range g.Sites {
			if st.Caller != g.Native && serialProxyClasses[nh.Methods()[st.Caller].Class.Name] {
				add(st.Caller)
			}
		}
	}
	// Sets of callers not visited again: a dispatch group or a fallback set is
	// computed again; another set that lost a member is visited again with its
	// callers, and so is a group whose method or class is gone.
	orphan := callgraph.NewBitset(len(g.Sets))
	for set, k := range prev.Trace.groups {
		if _, ok := ids.key(k); !ok {
			orphan.Add(set)
		}
	}
	recomputed := callgraph.NewBitset(len(g.Sets))
	for set := range tr.fallbacks {
		recomputed.Add(set)
	}
	for set, k := range tr.groups {
		if above[nh.Classes()[k.declared].Name] {
			recomputed.Add(set)
		}
	}
	if serialChanged {
		for set := range tr.serial {
			recomputed.Add(set)
		}
	}
	for _, b := range g.Bundles {
		if (lost.Has(b.Set) && !recomputed.Has(b.Set)) || orphan.Has(b.Set) {
			add(b.Caller)
		}
	}
	// In library mode a dispatch also has the targets that client classes could add
	// (libraryDispatch), which follow the whole hierarchy: the callers of a dispatch
	// whose library sets a new run makes otherwise are visited again, and make them.
	if opts.LibraryMode {
		changedLib := a.libDispatchesChanged(ctx, opts, prev, ids)
		for _, b := range g.Bundles {
			if changedLib.Has(b.Set) {
				add(b.Caller)
			}
		}
	}
	// The sets that callers not visited again still use: those computed again make
	// reachable what they gain.
	live := callgraph.NewBitset(len(g.Sets))
	for _, b := range g.Bundles {
		if g.Reachable.Has(b.Caller) && !inD.Has(b.Caller) {
			live.Add(b.Set)
		}
	}
	me := &memberEdit{native: native}
	g.Reachable.ForEach(func(id int32) {
		if m := nh.Methods(); int(id) < len(m) && m[id].IsNative() && m[id].Class.Origin != hierarchy.JDK {
			me.appNative = true
		}
	})
	seed := func(ids []int32) {
		for _, id := range ids {
			if !g.Reachable.Has(id) {
				me.seeds = append(me.seeds, id)
			}
		}
	}
	renew := func(set int32, members []int32) {
		if !slices.Equal(members, g.Sets[set]) {
			g.Sets[set] = members
			seed(members)
		}
	}
	for set, k := range tr.fallbacks {
		switch {
		case !live.Has(set):
		case k.kind == setInitChain:
			renew(set, a.initChain(nh.Classes()[k.ctx]))
		default:
			renew(set, a.fallbackSet(k))
		}
	}
	for set, k := range tr.groups {
		if live.Has(set) && recomputed.Has(set) {
			renew(set, a.groupTargets(k))
		}
	}
	es := newSolver(ctx, a, opts)
	es.oracle = cha.New(a.h)
	if serialChanged {
		if why := renewSerial(es, tr, live, renew); why != "" {
			return nil, nil, notUpdatable("%s", why)
		}
	}
	// The entry points: main methods may come and go with their classes.
	if err := es.addEntries(); err != nil {
		return nil, nil, err
	}
	me.entries = es.entries
	seed(es.entries)
	return a.revisit(ctx, opts, Previous{Analyzer: prev.Analyzer, Graph: g, Trace: tr}, slices.Collect(maps.Keys(delta)), visit, inD, me)
}

// libDispatchesChanged returns the dispatch groups of prev's run (by set) whose
// library-mode sets (libTargets) differ in the new hierarchy. A group whose method
// or class is gone is not among them: it is an orphan, whose callers are visited
// again anyway.
func (a *Analyzer) libDispatchesChanged(ctx context.Context, opts Options, prev Previous, ids *idMap) callgraph.Bitset {
	os, ns := newSolver(ctx, prev.Analyzer, opts), newSolver(ctx, a, opts)
	os.oracle, ns.oracle = cha.New(prev.Analyzer.h), cha.New(a.h)
	mapped := func(old []int32) []int32 {
		out := make([]int32, 0, len(old))
		for _, id := range old {
			if x := ids.id(id); x >= 0 {
				out = append(out, x)
			}
		}
		slices.Sort(out)
		return out
	}
	changed := callgraph.NewBitset(len(prev.Graph.Sets))
	for set, k := range prev.Trace.groups {
		nk, ok := ids.key(k)
		if !ok {
			continue
		}
		osub, ocoll := os.libTargets(k)
		nsub, ncoll := ns.libTargets(nk)
		if !slices.Equal(mapped(osub), nsub) || !slices.Equal(mapped(ocoll), ncoll) {
			changed.Add(set)
		}
	}
	return changed
}

// methodRefsKept reports why a lambda set may have to change ("" when none does): a
// method reference that dispatches on its first argument (T::m) has CHA's targets of
// m on T as its own, copied into the lambda sets of the dispatches it matches
// (lambdaSite). For every creator of a lambda target (tr in the new IDs) whose
// references name a class above a changed one, those targets must stay as they were.
func (a *Analyzer) methodRefsKept(prev Previous, tr *Trace, ids *idMap, above map[string]bool) string {
	oh, nh := prev.Analyzer.h, a.h
	seen := map[int32]bool{}
	for _, members := range tr.cond {
		for _, from := range members {
			if from < 0 || seen[from] || int(from) >= len(nh.Methods()) {
				continue
			}
			seen[from] = true
			f := a.prog.Facts(nh.Methods()[from])
			if f == nil {
				continue
			}
			for i := range f.Calls {
				impl, ok := f.Calls[i].Indy.LambdaImpl()
				if !ok || !above[impl.Ref.Class] || (impl.RefKind != classfile.RefInvokeVirtual && impl.RefKind != classfile.RefInvokeInterface) {
					continue
				}
				if c := nh.Class(impl.Ref.Class); c != nil {
					// A private or final method is the reference's one target, as
					// lambdaSite takes it: a member of the lambda sets like a lambda's body.
					if m, err := nh.ResolveMethod(c, impl.Ref.Name, impl.Ref.Desc, impl.Ref.Interface); err == nil && m != nil && (m.IsPrivate() || m.Access&accFinal != 0) {
						continue
					}
				}
				targets := func(h *hierarchy.Hierarchy, an *Analyzer) []int32 {
					c := h.Class(impl.Ref.Class)
					if c == nil {
						return nil
					}
					m, err := h.ResolveMethod(c, impl.Ref.Name, impl.Ref.Desc, impl.Ref.Interface)
					if err != nil || m == nil {
						return nil
					}
					return an.chaTargets(m, c)
				}
				var old []int32
				for _, id := range targets(oh, prev.Analyzer) {
					old = append(old, ids.method[id])
				}
				if !slices.Equal(frozenSet(old), frozenSet(slices.Clone(targets(nh, a)))) {
					return "the targets of method reference " + impl.Ref.Class + "::" + impl.Ref.Name + " changed"
				}
			}
		}
	}
	return ""
}

// readsDelta reports whether a value analysis or a resolver reading a method's code
// may find something else once the classes of below changed (with their subtypes;
// above: their supertypes): the code names one of them (namesAny), names a string
// of strs, checks a cast to or takes the class constant of a supertype of one other
// than Object, or makes a virtual call on one, whose dispatch the value analyses
// follow (they do not follow calls on Object and interfaces: values.callTargets).
func readsDelta(f *facts.Method, below, above, strs map[string]bool) bool {
	if f == nil {
		return false
	}
	if namesAny(f, below) {
		return true
	}
	for i := range f.StringConsts {
		if strs[f.StringConsts[i].Value] {
			return true
		}
	}
	// A cast or a guard bounds a value to the subtypes of a class: those of a
	// supertype of a changed class may differ. Object bounds nothing (javac emits no
	// cast to it), and an array type no class a reflective site creates or loads.
	bound := func(t string) bool { return t != "java/lang/Object" && above[t] }
	for i := range f.TypeChecks {
		if bound(f.TypeChecks[i].Type) {
			return true
		}
	}
	for i := range f.ClassConsts {
		if bound(f.ClassConsts[i].Value) {
			return true
		}
	}
	for i := range f.Calls {
		c := &f.Calls[i]
		if c.Op == bytecode.Invokevirtual && c.Ref.Class != "java/lang/Object" && above[c.Ref.Class] {
			return true
		}
	}
	return false
}

// specNames reports whether the specification names a class of names (binary names)
// as a site's or a target's class.
func specNames(opts Options, names map[string]bool) bool {
	if opts.Spec == nil {
		return false
	}
	for _, e := range opts.Spec.Entries {
		if names[e.Site.Class] {
			return true
		}
		for _, tg := range e.Targets {
			if names[tg.Class] {
				return true
			}
		}
	}
	return false
}

// memberDelta returns the classes whose shape or code differ between oh and nh: the
// changed ones, and those that exist (or are phantoms) in only one; or why an update
// in place cannot follow them.
func memberDelta(oh, nh *hierarchy.Hierarchy, changed []string) (map[string]bool, string) {
	delta := map[string]bool{}
	for _, n := range changed {
		delta[n] = true
	}
	for _, pair := range [][2]*hierarchy.Hierarchy{{oh, nh}, {nh, oh}} {
		for _, c := range pair[0].Classes() {
			if o := pair[1].Class(c.Name); o == nil || o.Phantom != c.Phantom {
				delta[c.Name] = true
			}
		}
	}
	if len(delta) > maxMemberEdit {
		return nil, "too many classes changed"
	}
	for name := range delta {
		for _, h := range []*hierarchy.Hierarchy{oh, nh} {
			c := h.Class(name)
			switch {
			case c == nil || c.Phantom:
			case c.IsInterface():
				// Lambdas implement interfaces and inherit their default methods: the
				// lambda sets would have to be matched again.
				return nil, "interface " + name + " was added, removed or changed"
			case c.Origin == hierarchy.JDK:
				return nil, "JDK class " + name + " changed (the JDK model names its classes)"
			}
		}
	}
	return delta, ""
}

// renewSerial computes again, in es (a CHA solver over the new hierarchy), the sets
// of serialization targets of tr that callers not visited again use (live), and
// renews them; or says why it cannot: a kind of target the run had no set of (no
// serializable class had one) now has members, and its sites would need a bundle
// to a new set.
func renewSerial(es *solver, tr *Trace, live callgraph.Bitset, renew func(set int32, members []int32)) string {
	if len(tr.serial) == 0 {
		return ""
	}
	ss := es.serial()
	if ss == nil {
		return "java.io.Serializable is gone"
	}
	read, write := false, false
	for _, k := range tr.serial {
		read, write = read || k < serialWriteHook, write || k >= serialWriteHook
	}
	var bundles []serialBundle
	if read {
		bundles = append(bundles, ss.readSets(es, site{pc: -1, line: -1, call: -1})...)
	}
	if write {
		bundles = append(bundles, ss.writeSets(es)...)
	}
	had := map[serialKind]bool{}
	for _, k := range tr.serial {
		had[k] = true
	}
	fresh := map[serialKind][]int32{}
	for _, b := range bundles {
		fresh[b.kind] = slices.Sorted(slices.Values(es.sets[b.set]))
		if !had[b.kind] && len(fresh[b.kind]) > 0 {
			return "deserialization reaches a new kind of target (" + es.reasons[b.reason].Evidence + ")"
		}
	}
	for set, k := range tr.serial {
		if live.Has(set) {
			renew(set, fresh[k])
		}
	}
	return ""
}

func serializable(h *hierarchy.Hierarchy, c *hierarchy.Class) bool {
	ser := h.Class("java/io/Serializable")
	return ser != nil && h.IsSubtype(c, ser)
}

// allSupertypes calls fn with c and each of its supertypes (superclasses and
// superinterfaces), once each.
func allSupertypes(c *hierarchy.Class, fn func(*hierarchy.Class)) {
	seen := map[*hierarchy.Class]bool{}
	var walk func(*hierarchy.Class)
	walk = func(k *hierarchy.Class) {
		for ; k != nil && !seen[k]; k = k.Super {
			seen[k] = true
			fn(k)
			for _, i := range k.Interfaces {
				walk(i)
			}
		}
	}
	walk(c)
}

// groupTargets returns the members of the CHA dispatch group of key, sorted: the
// targets of its method on its declared type, restricted (key.encap) to those
// encapsulation-safe from a class, as fillGroup makes them.
func (a *Analyzer) groupTargets(k dispatchKey) []int32 {
	ms, cs := a.h.Methods(), a.h.Classes()
	var out []int32
	for _, id := range a.chaTargets(ms[k.method], cs[k.declared]) {
		if m := ms[id]; k.encap == 0 || m.IsPublic() || a.h.EncapsulationSafe(cs[k.encap-1], m) {
			out = append(out, id)
		}
	}
	return frozenSet(out)
}

// namesAny reports whether a method's code names one of the classes (internal
// names): in an instruction's class or member reference, a class constant, an
// allocation, a type check or a descriptor of an invokedynamic.
func namesAny(f *facts.Method, names map[string]bool) bool {
	if f == nil {
		return false
	}
	in := func(s string) bool {
		s = strings.TrimLeft(s, "[")
		if strings.HasPrefix(s, "L") && strings.HasSuffix(s, ";") {
			s = s[1 : len(s)-1]
		}
		return names[s]
	}
	inDesc := func(desc string) bool {
		for i := 0; i < len(desc); i++ {
			if desc[i] != 'L' {
				continue
			}
			j := strings.IndexByte(desc[i:], ';')
			if j < 0 {
				return false
			}
			if names[desc[i+1:i+j]] {
				return true
			}
			i += j
		}
		return false
	}
	for i := range f.Calls {
		c := &f.Calls[i]
		if c.Indy == nil {
			if in(c.Ref.Class) {
				return true
			}
			continue
		}
		if indyNames(c.Indy, in, inDesc) {
			return true
		}
	}
	for i := range f.Allocs {
		if in(f.Allocs[i].Type) {
			return true
		}
	}
	for i := range f.ClassConsts {
		if in(f.ClassConsts[i].Value) {
			return true
		}
	}
	for i := range f.TypeChecks {
		if in(f.TypeChecks[i].Type) {
			return true
		}
	}
	for i := range f.Fields {
		if in(f.Fields[i].Ref.Class) {
			return true
		}
	}
	for i := range f.HandleConsts {
		if indyNames(&facts.Indy{Args: []facts.Constant{f.HandleConsts[i].Const}}, in, inDesc) {
			return true
		}
	}
	return false
}

func indyNames(in *facts.Indy, class, desc func(string) bool) bool {
	if class(in.Bootstrap.Class) || desc(in.Desc) {
		return true
	}
	for _, arg := range in.Args {
		switch {
		case arg.Kind == facts.ConstMethodHandle && (class(arg.Ref.Class) || desc(arg.Ref.Desc)):
			return true
		case arg.Kind == facts.ConstMethodType && desc(arg.Str):
			return true
		case arg.Kind == facts.ConstClass && class(arg.Str):
			return true
		case arg.Kind == facts.ConstDynamic && arg.Dynamic != nil && indyNames(arg.Dynamic, class, desc):
			return true
		}
	}
	return false
}
