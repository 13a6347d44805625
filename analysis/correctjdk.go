package analysis

import (
	"slices"
	"strings"
	"sync"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/jdkmodel"
	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// This file holds level 6, Correct-JDK: a native method of the JDK does only what its
// entry in the JDK model says (package jdkmodel), and the JVM calls into Java only as
// the model's jvm entries say. Natives of application and library code keep level
// 2's treatment: they call the NativeMethod node, which then may call any public
// method. At level 6 the NativeMethod node stands for the JVM: it is reachable from
// the start, its edges are the JVM's upcalls, and it gains level 2's public fallback
// only once an application or library native is reachable.

// jdkModel is the parsed model, shared by every run of an analyzer.
type jdkModel struct {
	once sync.Once
	m    *jdkmodel.Model
	err  error

	targetsOnce sync.Once
	targets     *jvmTargets // nil when the model does not parse

	// texts holds the evidence strings made from the model (modelText), by
	// modelTextKey: every call of a native has the same, in every run.
	texts sync.Map
}

// modelTextKey names an evidence string of the model: an entry's summary for a
// native (eff -1), or the reason of one of its effects, made from native m (-1:
// the JVM).
type modelTextKey struct {
	e      *jdkmodel.Entry
	m, eff int32
}

// modelText returns the string mk makes for key, made once per analyzer: the
// JDK's 12 thousand call sites of natives would otherwise hold a copy each, in
// each graph a server keeps.
func (a *Analyzer) modelText(key modelTextKey, mk func() string) string {
	if v, ok := a.jdk.texts.Load(key); ok {
		return v.(string)
	}
	v, _ := a.jdk.texts.LoadOrStore(key, mk())
	return v.(string)
}

// inheritModel gives a prev's parsed JDK model and the evidence strings made from
// it, which depend on the model and the methods' names only: an edit's new
// analyzer would otherwise parse the model and make its thousands of strings
// again, as garbage for the next edit's. idm, when not nil, moves the strings'
// methods to their IDs after a member edit.
func (a *Analyzer) inheritModel(prev *Analyzer, idm *idMap) {
	m, err := prev.model()
	a.jdk.once.Do(func() { a.jdk.m, a.jdk.err = m, err })
	prev.jdk.texts.Range(func(k, v any) bool {
		key := k.(modelTextKey)
		if idm != nil && key.m >= 0 {
			if key.m = idm.id(key.m); key.m < 0 {
				return true // the method is gone
			}
		}
		a.jdk.texts.Store(key, v)
		return true
	})
}

func (a *Analyzer) model() (*jdkmodel.Model, error) {
	a.jdk.once.Do(func() {
		a.jdk.m, a.jdk.err = jdkmodel.Shipped()
	})
	return a.jdk.m, a.jdk.err
}

// modelled reports whether the run treats native method m by the JDK model.
func (s *solver) modelled(m *hierarchy.Method) bool {
	return s.jdk != nil && m.Class.Origin == hierarchy.JDK
}

// modelSite records a call of a modelled native as a resolved dynamic site: its
// targets are the native itself, and what the native does is the edges out of it.
func (s *solver) modelSite(at site, m *hierarchy.Method) {
	e := s.jdk.Lookup(m.Class.Name, m.Name, m.Desc)
	s.sites = append(s.sites, callgraph.Site{
		Caller: at.caller.ID, PC: at.pc, Line: at.line, Call: at.call,
		Feature: callgraph.FeatNative, API: m.Class.Name + "." + m.Name,
		Status: callgraph.Resolved, Targets: s.singleton(m.ID),
		Evidence: s.a.modelText(modelTextKey{e, m.ID, -1}, func() string { return modelSummary(m, e) }),
	})
}

// modelSummary says in one line what the model lets a native do, for hovers.
func modelSummary(m *hierarchy.Method, e *jdkmodel.Entry) string {
	short := shortName(m.Class.Name) + "." + m.Name
	if e == nil {
		return "native method not in the JDK model: assumed to call nothing (Correct-JDK)"
	}
	var does []string
	for _, eff := range e.Effects {
		switch eff.Kind {
		case jdkmodel.EffNone:
			does = append(does, "calls nothing")
		case jdkmodel.EffCall, jdkmodel.EffDispatch:
			does = append(does, "→ "+shortName(eff.Class)+"."+eff.Name)
		case jdkmodel.EffNew:
			does = append(does, "creates "+shortName(eff.Class))
		case jdkmodel.EffAlloc:
			does = append(does, "allocates "+shortName(eff.Class))
		case jdkmodel.EffInit:
			does = append(does, "initialises "+shortName(eff.Class))
		case jdkmodel.EffHandover:
			does = append(does, "resolved at the "+eff.Feature+" API's call sites")
		}
	}
	if len(does) == 0 {
		does = []string{"calls nothing"}
	}
	return "native modeled: " + short + " " + strings.Join(does, ", ") + " (" + e.Selector() + "; evidence " + strings.Join(e.Evidence, "; ") + ")"
}

func shortName(internal string) string {
	return internal[strings.LastIndexByte(internal, '/')+1:]
}

// visitModelled adds the edges of a reachable modelled native: the effects of its
// model entry, made from the native itself.
func (s *solver) visitModelled(m *hierarchy.Method) {
	e := s.jdk.Lookup(m.Class.Name, m.Name, m.Desc)
	if e == nil {
		return // the model's coverage test names every unmodelled native of the JDKs it knows
	}
	s.applyEffects(site{caller: m, pc: -1, line: -1, call: -1}, m, e)
}

// jvmUpcalls adds the edges of the NativeMethod node at level 6: what the JVM does on
// its own, in a run configured as the environment values say (an entry with a when
// key applies only when they set it). The entries of jvmEntries are entry points at
// every level and stay so.
func (s *solver) jvmUpcalls() {
	at := site{pc: -1, line: -1, call: -1}
	for _, e := range s.jdk.JVM() {
		if e.When == "" || envSet(s.opts.Env, e.When) {
			s.applyEffects(at, nil, e)
		}
	}
}

// envSet reports whether the environment values turn key on: any value but an empty
// one, "false", "off" or "0".
func envSet(env map[string]string, key string) bool {
	v, ok := env[key]
	if !ok {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "off", "0", "no":
		return false
	}
	return true
}

// applyEffects adds the edges and instantiations of a model entry at a site: the
// native method m itself, or the JVM (m nil).
func (s *solver) applyEffects(at site, m *hierarchy.Method, e *jdkmodel.Entry) {
	from := int32(-1)
	if m != nil {
		from = m.ID
	}
	for i, eff := range e.Effects {
		r := modelReason(m, e, eff)
		// The first run's string is the one every graph keeps.
		r.Evidence = s.a.modelText(modelTextKey{e, from, int32(i)}, func() string { return r.Evidence })
		switch eff.Kind {
		case jdkmodel.EffCall:
			if t := s.modelMethod(eff); t != nil {
				s.edge(at, t, r)
				if t.IsStatic() {
					s.initialize(at, t.Class)
				}
			}
		case jdkmodel.EffDispatch:
			t := s.modelMethod(eff)
			if t == nil {
				continue
			}
			recv := s.modelValue(m, eff.Value, t.Class)
			if t.IsPrivate() || t.IsStatic() || (t.IsFinal() && !t.Class.IsInterface()) {
				s.edge(at, t, r)
			} else {
				s.dispatch(at, recv, t, r)
			}
		case jdkmodel.EffNew:
			c := s.h.Class(eff.Class)
			if c == nil || c.Phantom {
				continue
			}
			s.oracle.Created(s.modelCreated(m, c), c)
			s.initialize(at, c)
			if ctor := c.Method("<init>", eff.Desc); ctor != nil {
				s.edge(at, ctor, r)
			}
		case jdkmodel.EffAlloc:
			if c := s.h.Class(eff.Class); c != nil && !c.Phantom {
				s.oracle.Created(s.modelCreated(m, c), c)
			}
		case jdkmodel.EffInit:
			if c := s.h.Class(eff.Class); c != nil {
				s.initialize(at, c)
			}
		case jdkmodel.EffSets:
			if s.env != nil {
				s.writeProperty(eff.Key, false)
			}
		}
	}
}

// modelMethod resolves the method an effect names, or nil when the JDK in use lacks
// it (the model covers several JDK releases).
func (s *solver) modelMethod(eff jdkmodel.Effect) *hierarchy.Method {
	return resolveModelMethod(s.h, eff)
}

func resolveModelMethod(h *hierarchy.Hierarchy, eff jdkmodel.Effect) *hierarchy.Method {
	c := h.Class(eff.Class)
	if c == nil || c.Phantom {
		return nil
	}
	if m := c.Method(eff.Name, eff.Desc); m != nil {
		return m
	}
	m, err := h.ResolveMethod(c, eff.Name, eff.Desc, c.IsInterface())
	if err != nil {
		return nil
	}
	return m
}

// modelValue is the value a dispatch effect is made on: the native's receiver or
// parameter, declared of its own type when that is at least as specific as the class
// the effect names, else of that class; any object of that class for "any".
func (s *solver) modelValue(m *hierarchy.Method, v jdkmodel.Value, named *hierarchy.Class) algo.Value {
	var declared *hierarchy.Class
	n := 0
	switch {
	case m == nil:
	case v.Kind == jdkmodel.ValThis:
		declared = m.Class
	case v.Kind == jdkmodel.ValArg:
		if p := paramClass(m.Desc, v.Arg); p != "" {
			declared = s.h.Class(p)
		}
		n = v.Arg
		if !m.IsStatic() {
			n++
		}
	}
	if declared == nil || declared.Phantom || v.Kind == jdkmodel.ValAny {
		return algo.Any(named)
	}
	if !s.h.IsSubtype(declared, named) {
		declared = named
	}
	return algo.ParamOf(m, n, declared)
}

// modelCreated is where an object a modelled native (or the JVM, m nil) creates
// appears: the native's result when its type fits, else nowhere in particular: the
// JVM hands it to the program through calls (algo.Hidden).
func (s *solver) modelCreated(m *hierarchy.Method, c *hierarchy.Class) algo.Value {
	if m != nil {
		if r := s.h.Class(returnClass(m.Desc)); r != nil && s.h.IsSubtype(c, r) {
			return algo.ReturnOf(m, r)
		}
	}
	return algo.HiddenOf(c)
}

// paramClass returns the class name of parameter n of a method descriptor when it
// is a class type, else "".
func paramClass(desc string, n int) string {
	if p := jdkmodel.ParamDesc(desc, n); len(p) > 2 && p[0] == 'L' {
		return p[1 : len(p)-1]
	}
	return ""
}

// modelReason is the reason of an edge a model entry adds.
func modelReason(m *hierarchy.Method, e *jdkmodel.Entry, eff jdkmodel.Effect) callgraph.Reason {
	kind, from := callgraph.KindNative, "the JVM"
	if m == nil {
		kind = callgraph.KindCallback
	} else {
		from = shortName(m.Class.Name) + "." + m.Name
	}
	what := shortName(eff.Class) + "." + eff.Name
	if eff.Kind == jdkmodel.EffNew {
		what = "new " + shortName(eff.Class)
	}
	return callgraph.Reason{Kind: kind, Resolver: "jdk-model",
		Evidence: "callback modeled: " + from + " → " + what + " (" + e.Selector() + "), evidence " + strings.Join(e.Evidence, "; ")}
}

// jvmTargets are what the JDK model says native code and the JVM may call, create
// and initialise, over the whole model: at levels 2-5 the NativeMethod node calls
// them besides every public method. Level 2's rule (native code respects access)
// is about code a program brings; the JVM's own upcalls (Thread.exit after run,
// the launcher's helpers, MethodHandleNatives.linkCallSite, Finalizer.register, ...)
// reach non-public methods whatever the level, and a level whose NativeMethod node
// lacks them would miss calls every run makes and would not contain level 6's graph.
type jvmTargets struct {
	methods []int32            // sorted; dispatch effects add every override CHA selects
	created []*hierarchy.Class // classes allocated without a constructor (alloc effects)
}

// jdkBoundary tells the value analyses where the JDK's code ends at Correct-JDK:
// the packages its modules keep to themselves (from their descriptors) and the
// methods the JVM and native code call (from the model), which have callers
// besides the code they read.
func (s *solver) jdkBoundary(env *values.Environment) {
	if p, ok := s.a.prog.(configured); ok {
		if cfg := p.Config(); cfg != nil {
			env.Internal = func(c *hierarchy.Class) bool { return cfg.JDKInternal(c.Package()) }
		}
	}
	if t := s.a.modelTargets(); t != nil {
		env.Upcalled = func(m *hierarchy.Method) bool {
			_, ok := slices.BinarySearch(t.methods, m.ID)
			return ok
		}
	}
}

// modelTargets computes jvmTargets once per analyzer.
func (a *Analyzer) modelTargets() *jvmTargets {
	a.jdk.targetsOnce.Do(func() {
		m, err := a.model()
		if err != nil {
			return // RunTrace reports the model's error at level 6; below, the node keeps its fallback
		}
		t := &jvmTargets{}
		seen := map[int32]bool{}
		add := func(x *hierarchy.Method) {
			if x != nil && !x.IsAbstract() && !seen[x.ID] { // level 1's sets hold no abstract method either
				seen[x.ID] = true
				t.methods = append(t.methods, x.ID)
			}
		}
		for _, e := range m.Entries {
			for _, eff := range e.Effects {
				switch eff.Kind {
				case jdkmodel.EffCall:
					add(resolveModelMethod(a.h, eff))
				case jdkmodel.EffDispatch:
					rm := resolveModelMethod(a.h, eff)
					if rm == nil {
						continue
					}
					add(rm)
					a.h.SelectSubtypes(rm.Class, rm, func(_ *hierarchy.Class, sel *hierarchy.Method) bool {
						add(sel)
						return true
					})
				case jdkmodel.EffNew:
					if c := a.h.Class(eff.Class); c != nil && !c.Phantom {
						add(c.Method("<init>", eff.Desc))
					}
				case jdkmodel.EffAlloc:
					if c := a.h.Class(eff.Class); c != nil && !c.Phantom {
						t.created = append(t.created, c)
					}
				}
			}
		}
		slices.Sort(t.methods)
		a.jdk.targets = t
	})
	return a.jdk.targets
}
