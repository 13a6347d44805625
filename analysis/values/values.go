// Package values answers the questions that resolve dynamic sites beyond the
// conservative fallbacks: which strings can reach a loading site (Correct-String),
// which classes a Class object can denote, and which cast an instantiated object meets
// (Correct-Cast). The analyses are demand-driven over the def-use facts of
// index/facts, and interprocedural where the assumption level licenses it: through
// returns of statically bound calls and of invokevirtual calls (the union over the
// targets class hierarchy analysis selects, see callTargets), through parameters of private and package-private
// methods (whose callers are all in the class or package) and through private fields.
// Where a value comes from outside that reach, the place is recorded as a
// specification point.
package values

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Program is what the analyses read; analysis.Program satisfies it.
type Program interface {
	Hierarchy() *hierarchy.Hierarchy
	Facts(m *hierarchy.Method) *facts.Method
	Flow(m *hierarchy.Method) (*facts.Flow, error)
}

// Point is a specification point: a place where an unknown value enters the flow that
// reaches a site, so that a value given there by the user would resolve it.
type Point struct {
	Method *hierarchy.Method
	PC     int32
	Line   int32
	Kind   string
	// Beyond says the value comes from a source the level does not license
	// (docs/assumption-levels.md): a public parameter, a field others may write, the
	// environment (without its value), a collection, a file, a method the analysis
	// may not follow. Without it the level licenses the source and the analysis
	// stopped short (a loop, a deep call chain, a builder it does not model).
	Beyond bool
}

// beyond marks p as a source the level does not license.
func beyond(p Point) Point {
	p.Beyond = true
	return p
}

// Index holds what every run over one program shares: the call instructions of every
// method by their declared target, for finding the callers of a method.
type Index struct {
	prog Program

	refsOnce sync.Once
	refs     *refIndex                // which classes may name which methods
	built    atomic.Pointer[refIndex] // refs, once built: for NewIndexAfter
	// extra are classes every look-up of refs yields besides its own: those whose
	// code changed since refs was built (NewIndexAfter).
	extra []int32

	// refsMu guards the call instructions of the classes indexed so far (indexed),
	// gathered by key: complete keys (all of whose classes are indexed) in named,
	// the others in partial.
	refsMu  sync.Mutex
	indexed []bool // by class ID
	named   map[refKey]*namedRefs
	partial map[refKey]*namedRefs

	namesOnce sync.Once
	names     []string // binary names of the classes, by class ID

	// callerCache memoises callers by method ID: the cast and class analyses ask
	// for the same methods' callers at every level, and the runs of the levels
	// share the index concurrently.
	callerMu    sync.Mutex
	callerCache map[int32][]CallRef
	// dispatchCache memoises the CHA targets of virtual calls (see callTargets);
	// guarded by callerMu.
	dispatchCache map[dispatchKey]dispatchSet

	byNameOnce sync.Once
	byName     map[string][]*hierarchy.Method // methods by name, without <init> and <clinit>
}

// namedRefs is what the code of the program does with the methods of one name and
// descriptor.
type namedRefs struct {
	calls []CallRef // by caller ID and call
	// handles are the classes that method-handle constants of bootstrap arguments
	// (lambda bodies, method references) name with the key: such methods have
	// callers no call instruction shows.
	handles []string
}

// MethodsNamed returns the methods of the program with a name (neither
// constructors nor initialisers), for resolving reflective calls by name.
func (ix *Index) MethodsNamed(name string) []*hierarchy.Method {
	return ix.methodsByName()[name]
}

// methodsByName returns the table MethodsNamed reads, made on first use.
func (ix *Index) methodsByName() map[string][]*hierarchy.Method {
	ix.byNameOnce.Do(func() {
		ix.byName = map[string][]*hierarchy.Method{}
		for _, m := range ix.prog.Hierarchy().Methods() {
			if m.Name != "<init>" && m.Name != "<clinit>" {
				ix.byName[m.Name] = append(ix.byName[m.Name], m)
			}
		}
	})
	return ix.byName
}

// binaryNames returns every class's binary name ("java.lang.String"), by class ID,
// for matching string shapes.
func (ix *Index) binaryNames() []string {
	ix.namesOnce.Do(func() {
		cs := ix.prog.Hierarchy().Classes()
		ix.names = make([]string, len(cs))
		for i, c := range cs {
			ix.names[i] = strings.ReplaceAll(c.Name, "/", ".")
		}
	})
	return ix.names
}

type refKey struct{ name, desc string }

// CallRef is one call instruction.
type CallRef struct {
	Caller *hierarchy.Method
	Call   int32 // index into the caller's facts.Calls
}

// NewIndex returns a shared index over prog; it is built on first use.
func NewIndex(prog Program) *Index { return &Index{prog: prog} }

// NewIndexAfter returns an index over prog, a program with the classes and methods
// of prev's (hierarchy.WithBodies) that differs only in the code of the classes
// changed. It shares the table of which classes name which methods that prev
// built, if any (reading every constant pool of the JDK takes tens of
// milliseconds), and treats the changed classes as naming every method: the table
// only narrows where to look. It also keeps what prev looked up that the change
// cannot alter (inheritLookups).
func NewIndexAfter(prog Program, prev *Index, changed []int32) *Index {
	ix := &Index{prog: prog}
	if prev == nil || len(prev.prog.Hierarchy().Classes()) != len(prog.Hierarchy().Classes()) {
		return ix
	}
	if refs := prev.built.Load(); refs != nil {
		ix.refs = refs
		ix.built.Store(refs)
		ix.refsOnce.Do(func() {}) // refs is complete
		ix.extra = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(prev.extra), changed...))))
	}
	ix.inheritLookups(prev, changed)
	return ix
}

// inheritLookups gives ix prev's call instructions by name, and the callers found
// from them: the other classes' code is the same, so for a name and descriptor
// that the changed classes' code names neither before nor after the change they
// are too, and for one it names the changed classes' part is replaced. (An edit
// loop on javacc spent a sixth of each run indexing the JDK's calls by name
// again.) The callers of a name the change touches are found again from the new
// calls. The CHA dispatch, the methods by name and the classes' binary names come
// from the hierarchy, which is prev's.
func (ix *Index) inheritLookups(prev *Index, changed []int32) {
	isChanged := map[int32]bool{}
	for _, id := range changed {
		isChanged[id] = true
	}
	touched := codeDeltas{}
	for _, id := range changed {
		touched.before(prev.prog, prev.prog.Hierarchy().Classes()[id])
		touched.after(ix.prog, ix.prog.Hierarchy().Classes()[id])
	}
	prev.refsMu.Lock()
	if prev.named != nil {
		ix.named, ix.partial = map[refKey]*namedRefs{}, map[refKey]*namedRefs{}
		ix.indexed = make([]bool, len(prev.indexed))
		for k, n := range prev.named {
			d := touched[k]
			if d == nil {
				ix.named[k] = n // complete, never modified: shared
				continue
			}
			var calls []CallRef
			for _, cr := range n.calls {
				if !isChanged[cr.Caller.Class.ID] {
					calls = append(calls, cr)
				}
			}
			ix.named[k] = d.apply(calls, n.handles)
		}
	}
	prev.refsMu.Unlock()
	prev.callerMu.Lock()
	if prev.callerCache != nil {
		ms := ix.prog.Hierarchy().Methods()
		ix.callerCache = map[int32][]CallRef{}
		for id, refs := range prev.callerCache {
			if m := ms[id]; touched[refKey{m.Name, m.Desc}] == nil {
				ix.callerCache[id] = refs
			}
		}
	}
	ix.dispatchCache = maps.Clone(prev.dispatchCache)
	prev.callerMu.Unlock()
	// Made from the hierarchy alone: shared, never modified.
	byName, names := prev.methodsByName(), prev.binaryNames()
	ix.byNameOnce.Do(func() { ix.byName = byName })
	ix.namesOnce.Do(func() { ix.names = names })
}

// codeDelta is what the changed classes' code named with one key before an edit
// (handles only: their calls are dropped by caller) and names after it.
type codeDelta struct {
	oldHandles []string
	calls      []CallRef
	handles    []string
}

// codeDeltas are the changed classes' deltas by key.
type codeDeltas map[refKey]*codeDelta

func (ds codeDeltas) at(k refKey) *codeDelta {
	d := ds[k]
	if d == nil {
		d = &codeDelta{}
		ds[k] = d
	}
	return d
}

// before records what the code of c, a changed class of the program p before the
// edit, named.
func (ds codeDeltas) before(p Program, c *hierarchy.Class) {
	for _, m := range c.Methods {
		eachKey(p.Facts(m), func(k refKey, call int32, handleClass string) {
			if d := ds.at(k); call < 0 {
				d.oldHandles = append(d.oldHandles, handleClass)
			}
		})
	}
}

// after records what the code of c, a changed class of the program p after the
// edit, names.
func (ds codeDeltas) after(p Program, c *hierarchy.Class) {
	for _, m := range c.Methods {
		eachKey(p.Facts(m), func(k refKey, call int32, handleClass string) {
			d := ds.at(k)
			if call >= 0 {
				d.calls = append(d.calls, CallRef{m, call})
			} else {
				d.handles = append(d.handles, handleClass)
			}
		})
	}
}

// apply returns a key's references after the edit: the other classes' calls and
// the handles before it, with the changed classes' part replaced.
func (d *codeDelta) apply(others []CallRef, handles []string) *namedRefs {
	nn := &namedRefs{calls: append(others, d.calls...), handles: slices.Clone(handles)}
	slices.SortFunc(nn.calls, byCall)
	for _, h := range d.oldHandles {
		if i := slices.Index(nn.handles, h); i >= 0 {
			nn.handles = slices.Delete(nn.handles, i, i+1)
		}
	}
	nn.handles = append(nn.handles, d.handles...)
	return nn
}

// byCall orders call instructions by caller and call.
func byCall(a, b CallRef) int {
	return cmp.Or(cmp.Compare(a.Caller.ID, b.Caller.ID), cmp.Compare(a.Call, b.Call))
}

// eachKey calls fn with the name and descriptor each call instruction of f names
// (with the call's index), and each method-handle constant of an invokedynamic's
// bootstrap arguments (with the constant's class).
func eachKey(f *facts.Method, fn func(k refKey, call int32, handleClass string)) {
	if f == nil {
		return
	}
	for i := range f.Calls {
		c := &f.Calls[i]
		if c.Indy == nil {
			fn(refKey{c.Ref.Name, c.Ref.Desc}, int32(i), "")
			continue
		}
		for _, arg := range c.Indy.Args {
			if arg.Kind == facts.ConstMethodHandle {
				fn(refKey{arg.Ref.Name, arg.Ref.Desc}, -1, arg.Ref.Class)
			}
		}
	}
}

// callsNamed returns the call instructions naming a method with this name and
// descriptor, in any class, and the classes method-handle constants name with them.
// The result is shared and must not be modified.
func (ix *Index) callsNamed(name, desc string) *namedRefs {
	k := refKey{name, desc}
	ix.refsMu.Lock()
	n, ok := ix.named[k]
	ix.refsMu.Unlock()
	if ok {
		return n
	}
	ix.refsOnce.Do(func() {
		ix.refs = newRefIndex(ix.prog.Hierarchy())
		ix.built.Store(ix.refs)
	})
	h := ix.prog.Hierarchy()
	classes := h.Classes()
	ids := ix.refs.lookup(name, desc)
	if len(ix.extra) > 0 {
		ids = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(ids), ix.extra...))))
	}
	// Extract the facts outside the lock, so that concurrent runs extract
	// different classes at once.
	for _, id := range ids {
		for _, m := range classes[id].Methods {
			ix.prog.Facts(m)
		}
	}
	ix.refsMu.Lock()
	defer ix.refsMu.Unlock()
	if n, ok := ix.named[k]; ok {
		return n
	}
	if ix.named == nil {
		ix.named, ix.partial = map[refKey]*namedRefs{}, map[refKey]*namedRefs{}
		ix.indexed = make([]bool, len(classes))
	}
	for _, id := range ids {
		if !ix.indexed[id] {
			ix.indexed[id] = true
			ix.indexClass(classes[id])
		}
	}
	// Every class naming k is indexed now, so nothing will add to it.
	n = ix.partial[k]
	delete(ix.partial, k)
	if n == nil {
		n = &namedRefs{}
	}
	slices.SortFunc(n.calls, func(a, b CallRef) int {
		return cmp.Or(cmp.Compare(a.Caller.ID, b.Caller.ID), cmp.Compare(a.Call, b.Call))
	})
	ix.named[k] = n
	return n
}

// indexClass adds the call instructions and method-handle constants of c's code to
// the keys they name. The caller holds refsMu.
func (ix *Index) indexClass(c *hierarchy.Class) {
	for _, m := range c.Methods {
		eachKey(ix.prog.Facts(m), func(k refKey, call int32, handleClass string) {
			if _, done := ix.named[k]; done {
				return // inherited (NewIndexAfter), or waited for c
			}
			n := ix.partial[k]
			if n == nil {
				n = &namedRefs{}
				ix.partial[k] = n
			}
			if call >= 0 {
				n.calls = append(n.calls, CallRef{m, call})
			} else {
				n.handles = append(n.handles, handleClass)
			}
		})
	}
}

// hiddenCallers reports whether m may be called other than by the call instructions
// callers finds: through a method handle (lambda bodies, method references), or by
// the JVM (serialization hooks and other private methods nothing calls).
func (ix *Index) hiddenCallers(m *hierarchy.Method) bool {
	if m.Access&classfile.AccSynthetic != 0 {
		return true
	}
	h := ix.prog.Hierarchy()
	for _, rc := range ix.callsNamed(m.Name, m.Desc).handles {
		// A handle to a constructor, a static or a private method names exactly
		// the method its class resolves to; one to another method may dispatch to
		// any override, so any class may hide a caller.
		if !m.IsConstructor() && !m.IsStatic() && !m.IsPrivate() {
			return true
		}
		c := h.Class(rc)
		if c == nil {
			continue
		}
		if c == m.Class {
			return true
		}
		if !m.IsConstructor() {
			if rm, err := h.ResolveMethod(c, m.Name, m.Desc, c.IsInterface()); err != nil || rm == m {
				return true
			}
		}
	}
	return false
}

// callers returns the call instructions that may invoke m: those naming m's name
// and descriptor whose declared class resolves to m, or to a method m overrides.
func (ix *Index) callers(m *hierarchy.Method) []CallRef {
	ix.callerMu.Lock()
	out, ok := ix.callerCache[m.ID]
	ix.callerMu.Unlock()
	if ok {
		return out
	}
	out = ix.findCallers(m)
	ix.callerMu.Lock()
	if ix.callerCache == nil {
		ix.callerCache = map[int32][]CallRef{}
	}
	ix.callerCache[m.ID] = out
	ix.callerMu.Unlock()
	return out
}

func (ix *Index) findCallers(m *hierarchy.Method) []CallRef {
	h := ix.prog.Hierarchy()
	var out []CallRef
	for _, cr := range ix.callsNamed(m.Name, m.Desc).calls {
		c := &ix.prog.Facts(cr.Caller).Calls[cr.Call]
		owner := h.Class(c.Ref.Class)
		if owner == nil {
			continue
		}
		rm, err := h.ResolveMethod(owner, c.Ref.Name, c.Ref.Desc, c.Ref.Interface)
		if err != nil || rm == nil {
			continue
		}
		if rm == m || (c.Op == bytecode.Invokevirtual || c.Op == bytecode.Invokeinterface) && h.IsSubtype(m.Class, rm.Class) {
			out = append(out, cr)
		}
	}
	return out
}

// method is per-method information the analyses look up by bytecode offset.
type method struct {
	m      *hierarchy.Method
	file   *classfile.File
	f      *facts.Method
	flow   *facts.Flow
	code   []byte
	calls  map[int32]*facts.Call
	strs   map[int32]string
	cls    map[int32]string
	fields map[int32]*facts.FieldAccess
	casts  map[int32]string
	allocs map[int32]string
}

// methodInfo gathers the facts of m by offset; nil when m has no analysable code.
func (a *Analyzer) methodInfo(m *hierarchy.Method) *method {
	if mi, ok := a.methods[m.ID]; ok {
		if a.obs != nil {
			a.obs.ReadFacts(m)
		}
		return mi
	}
	var mi *method
	defer func() { a.methods[m.ID] = mi }()
	f := a.prog.Facts(m)
	if f == nil || a.h.File(m.Class) == nil {
		return nil
	}
	fl, err := a.prog.Flow(m)
	if err != nil || fl == nil {
		return nil
	}
	code, err := a.h.Info(m).Code()
	if err != nil || code == nil {
		return nil
	}
	mi = &method{m: m, file: a.h.File(m.Class), f: f, flow: fl, code: code.Bytecode,
		calls: map[int32]*facts.Call{}, strs: map[int32]string{}, cls: map[int32]string{},
		fields: map[int32]*facts.FieldAccess{}, casts: map[int32]string{}, allocs: map[int32]string{}}
	for i := range f.Calls {
		mi.calls[f.Calls[i].PC] = &f.Calls[i]
	}
	for _, c := range f.StringConsts {
		mi.strs[c.PC] = c.Value
	}
	for _, c := range f.ClassConsts {
		mi.cls[c.PC] = c.Value
	}
	for i := range f.Fields {
		mi.fields[f.Fields[i].PC] = &f.Fields[i]
	}
	for _, t := range f.TypeChecks {
		if !t.Instanceof {
			mi.casts[t.PC] = t.Type
		}
	}
	for _, al := range f.Allocs {
		mi.allocs[al.PC] = al.Type
	}
	return mi
}

// opAt returns the opcode at pc, or 0xff when pc is not an instruction.
func (mi *method) opAt(pc int) (bytecode.Instr, bool) {
	in, err := bytecode.Decode(mi.code, pc)
	return in, err == nil
}

// line returns the source line of pc.
func (mi *method) line(pc int32) int32 {
	best := int32(-1)
	for i := range mi.f.Calls {
		if mi.f.Calls[i].PC <= pc {
			best = mi.f.Calls[i].Line
		}
	}
	return best
}

// returns lists the offsets of the areturn instructions of the method.
func (mi *method) returns() []int {
	var out []int
	bytecode.Walk(mi.code, func(in bytecode.Instr) error {
		if in.Op == bytecode.Areturn {
			out = append(out, in.PC)
		}
		return nil
	})
	return out
}

// postDominatesNormal reports whether the instruction at a is on every path from the
// normal completion of the instruction at b to a method exit: it post-dominates b's
// fall-through successor (or b itself when a == b's successor's predecessor chain
// starts there). Correct-Cast constrains the objects a newInstance creates, so the
// paths that matter are those on which b produced its value; a b that throws creates
// nothing. Exception edges of the instructions after b still count, so a cast that an
// exception can bypass does not post-dominate.
func (mi *method) postDominatesNormal(a, b int) bool {
	in, ok := mi.opAt(b)
	if !ok {
		return false
	}
	next := b + in.Len
	if a == next {
		return true
	}
	if next >= len(mi.code) {
		return false
	}
	return mi.flow.PostDominates(a, next)
}

// operand returns the reaching definitions of operand k of the instruction at pc.
func (mi *method) operand(pc int32, k int) []facts.Def {
	ops := mi.flow.Operands(int(pc))
	if k < 0 || k >= len(ops) {
		return nil
	}
	return ops[k]
}

// intConst returns the value of an int constant pushed at pc.
func (mi *method) intConst(pc int) (int32, bool) {
	in, ok := mi.opAt(pc)
	if !ok {
		return 0, false
	}
	switch in.Op {
	case bytecode.IconstM1, bytecode.Iconst0, bytecode.Iconst1, bytecode.Iconst2, bytecode.Iconst3,
		bytecode.Iconst4, bytecode.Iconst5, bytecode.Bipush, bytecode.Sipush:
		return in.Value, true
	case bytecode.Ldc, bytecode.LdcW:
		p := mi.file.Pool
		if p.Tag(in.Index) == classfile.TagInteger {
			return p.Int(in.Index), true
		}
	}
	return 0, false
}

// upcalled reports whether the JVM or native code may call m.
func (a *Analyzer) upcalled(m *hierarchy.Method) bool {
	return a.env.Upcalled != nil && a.env.Upcalled(m)
}

// nonPublic reports whether all callers of m are in its class or package, so its
// parameters may be followed back to them under Correct-String.
func nonPublic(m *hierarchy.Method) bool {
	return m.Access&(classfile.AccPublic|classfile.AccProtected) == 0
}

// closedCallers reports whether the analyses may follow m's parameters to its
// callers (argSources finds them), which Correct-String licenses where reflection
// that obeys access rules cannot reach either: m is private or package-private;
// or a constructor of a class that is not public, which no other package can
// name (JVMS 5.4.4), nor inherit or dispatch to; or, at Correct-JDK, a static
// method or constructor of a JDK class whose package its module keeps to the JDK
// (strong encapsulation: Environment.Internal), whose callers are the JDK's own
// code. An instance method of such a class may still override one that is not
// kept, and run where that one is called. A method the JVM or native code calls
// has other callers.
func (a *Analyzer) closedCallers(m *hierarchy.Method) bool {
	switch {
	case a.upcalled(m):
		return false
	case nonPublic(m):
		return true
	case m.IsConstructor() && m.Class.Access&classfile.AccPublic == 0:
		return true
	}
	return a.level.ModelsJDK() && a.env.Internal != nil && (m.IsStatic() || m.IsConstructor()) &&
		m.Class.Origin == hierarchy.JDK && a.env.Internal(m.Class)
}

// sortedClasses orders classes by name for stable output.
func sortedClasses(cs map[*hierarchy.Class]bool) []*hierarchy.Class {
	out := make([]*hierarchy.Class, 0, len(cs))
	for c := range cs {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func itoa(i int32) string { return strconv.Itoa(int(i)) }

// Observer is told what an analyzer's answers depend on besides the hierarchy: the
// methods whose facts it read and the methods whose callers it looked up (which
// depend on the facts of every method calling them). An update of a call graph in
// place after some method bodies changed must answer again every question whose
// answer depended on them.
//
// The analyzer reuses results between questions without reading again what they
// were computed from: it then tells Reused which question computed them, as Question
// named it at the time, and the observer counts that question's reads as the
// current one's.
type Observer interface {
	ReadFacts(m *hierarchy.Method)
	ReadCallers(m *hierarchy.Method)
	Question() int32
	Reused(question int32)
}

// origin is the question a reused result was computed for (see Observer).
func (a *Analyzer) origin() int32 {
	if a.obs == nil {
		return 0
	}
	return a.obs.Question()
}

// reuse tells the observer that the current answer reuses a result of question q.
func (a *Analyzer) reuse(q int32) {
	if a.obs != nil {
		a.obs.Reused(q)
	}
}

// cached is a result kept for reuse with the question it was computed for.
type cached[V any] struct {
	v      V
	q      int32
	busy   bool // a placeholder while v is computed: a recursive ask gets it
	height int  // how much deeper than where it started v's evaluation went
	cut    bool // v met the depth bound
}

// Observe makes o observe every later read of a.
func (a *Analyzer) Observe(o Observer) {
	a.obs = o
	a.prog = observedProgram{a.prog, o}
}

type observedProgram struct {
	Program
	o Observer
}

func (p observedProgram) Facts(m *hierarchy.Method) *facts.Method {
	p.o.ReadFacts(m)
	return p.Program.Facts(m)
}

func (p observedProgram) Flow(m *hierarchy.Method) (*facts.Flow, error) {
	p.o.ReadFacts(m)
	return p.Program.Flow(m)
}

func (a *Analyzer) callers(m *hierarchy.Method) []CallRef {
	if a.obs != nil {
		a.obs.ReadCallers(m)
	}
	return a.ix.callers(m)
}

// hiddenCallers depends on the method-handle constants of every method, which an
// update in place requires unchanged; it is observed like callers all the same.
func (a *Analyzer) hiddenCallers(m *hierarchy.Method) bool {
	if a.obs != nil {
		a.obs.ReadCallers(m)
	}
	return a.ix.hiddenCallers(m)
}

// LambdaCaptures returns the invokedynamic instructions that capture the private
// method m as the body of a lambda (LambdaMetafactory sites whose implementation is
// m), and whether they are the only ways m is called: no call instruction names it
// and no other bootstrap argument does. Only m's class can name a private method
// (JVMS 5.4.4), and javac names a lambda body once, at its capture.
func (a *Analyzer) LambdaCaptures(m *hierarchy.Method) (caps []CallRef, only bool) {
	if !m.IsPrivate() || len(a.callers(m)) > 0 {
		return nil, false
	}
	if a.obs != nil {
		a.obs.ReadCallers(m)
	}
	h := a.ix.prog.Hierarchy()
	handles := 0
	for _, rc := range a.ix.callsNamed(m.Name, m.Desc).handles {
		if rc == m.Class.Name {
			handles++
			continue
		}
		// Another class's method with the same name and descriptor, unless the
		// constant resolves to m all the same.
		if c := h.Class(rc); c != nil {
			if rm, err := h.ResolveMethod(c, m.Name, m.Desc, c.IsInterface()); err != nil || rm == m {
				return nil, false
			}
		}
	}
	for _, cm := range m.Class.Methods {
		f := a.ix.prog.Facts(cm)
		if f == nil {
			continue
		}
		for i := range f.Calls {
			in := f.Calls[i].Indy
			if in == nil {
				continue
			}
			impl, ok := in.LambdaImpl()
			if ok && impl.Ref.Class == m.Class.Name && impl.Ref.Name == m.Name && impl.Ref.Desc == m.Desc {
				caps = append(caps, CallRef{cm, int32(i)})
			}
		}
	}
	// Each capture is one handle constant of its site; any other is a caller
	// this does not follow.
	return caps, len(caps) > 0 && len(caps) == handles
}

// argSources returns the instructions whose operand n is what parameter n of m
// receives (n counts the receiver of an instance method): m's call instructions or,
// for the body of a lambda that nothing else calls (LambdaCaptures), the
// invokedynamic instructions that capture it, when n is one of the values they
// capture. ok is false when there is another source: no caller, a method handle
// or the JVM, or the lambda's interface method, whose caller hands the parameters
// past the captured ones.
func (a *Analyzer) argSources(m *hierarchy.Method, n int) (_ []CallRef, ok bool) {
	callers := a.callers(m)
	if !a.hiddenCallers(m) {
		return callers, len(callers) > 0
	}
	caps, only := a.LambdaCaptures(m)
	if !only {
		return nil, false
	}
	for _, c := range caps {
		mi := a.methodInfo(c.Caller)
		if mi == nil || n >= len(mi.flow.Operands(int(mi.f.Calls[c.Call].PC))) {
			return nil, false
		}
	}
	return caps, true
}

// Callers returns the call instructions that may invoke m, and whether they are all
// of its callers (none through a method handle or the JVM).
func (a *Analyzer) Callers(m *hierarchy.Method) ([]CallRef, bool) {
	return a.callers(m), !a.hiddenCallers(m)
}
