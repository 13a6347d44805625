// Package typeflow propagates sets of classes along a graph of a program's values:
// the engine of the call-graph algorithms that follow values, XTA (package xta: one
// set per method and per field) and TFA (package tfa: one set per value: a
// parameter, a method's return, an instruction's result, an operand where several
// definitions meet, a field). A class enters a set where an instance is created and
// flows along edges filtered by declared types: from a call's arguments into its
// targets' parameters, from their returns back into the call's result, through
// fields (a write into the field's set, a read out of it), casts (TFA) and one set
// for the elements of all reference arrays. A virtual call reaches only the classes
// in its receiver's set.
//
// The JDK's code is summarised, not followed (Config.Summarised), as Zhuo and Zhang
// treat library code: each value of a JDK method is any object of its declared type
// created anywhere (RTA's answer), so the sets are per value in the application and
// its libraries, where users read call hierarchies. (TFA keeps one thing of the
// JDK's code: a method that returns one of its arguments unchanged, as
// Objects.requireNonNull and Class.cast do, passes the argument's set through.)
// Following the JDK's values bought almost nothing: with the whole JDK, its
// containers, arrays and reflective fallbacks put nearly every JDK value at
// "everything" anyway (javacc at Correct-JDK: 207,539 reachable methods followed,
// 207,558 summarised, 11,618 and 11,612 of 13,348 application call sites with at
// most one target), for ten times the time (24 s and 1.8 GB against 2.5 s and
// 1.3 GB).
//
// Soundness beyond bytecode, which the papers' languages do not have:
//   - objects created at no particular place (algo.Any: a library's clients'
//     instances) are global: every question sees them; objects made by code the
//     program does not contain (algo.Hidden: the JVM's, a constructor
//     reference's) are created at no value, and reach the program as what calls
//     into that code return or pass on (a constructor reached without being named
//     returns a new object). XTA's exceptions are global, as its handlers read
//     the method's one set; TFA follows an exception as any value until it is
//     thrown: what a handler catches is any created object of the caught type, as
//     thrown exceptions travel up the call stack;
//   - what native code is given, the JVM may keep ("held"): it calls back into
//     Java (upcalls, callbacks of natives at levels 1-5) with what it holds, and
//     keeps what those calls return; a native with a reference result may return
//     anything held or stored in a field or an array (Unsafe reads any field), and
//     one with an array result may fill it with what is held;
//   - Unsafe, reflective array stores and the JVM's own setters of System's streams
//     write fields and arrays the bytecode does not name: what they are given may be
//     in every array and every field of a fitting type. Where the assumption level
//     has reflection and native code obey access rules (Encap-Respect and above),
//     that is every field of the JDK, the public fields of the application and its
//     libraries, and their other fields only once their own code asks for access to
//     fields by name (field updaters, VarHandles, Field, Unsafe): the JDK reaches the
//     private fields of a class only through what the class hands it.
//     Deserialization writes the fields of the objects it creates, whatever their
//     access (algo.Follower.Written).
//   - a call that hands values other than as its callee's parameters (reflection,
//     method handles, Thread.start to run, a lambda's interface method to its
//     implementation, the JVM's own calls) passes everything it hands to every
//     parameter of a fitting type, and the elements of every array where it passes
//     an array or a list;
//   - a method whose code cannot be analysed (TFA) is treated as native code.
//
// The recall test (analysis/recall) checks these rules against methods real programs
// execute.
package typeflow

import (
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Config is what a run tells the analysis beyond the program.
type Config struct {
	// Encap says whether the run's assumption level has reflection and native
	// code obey access rules (callgraph.EncapRespect and above).
	Encap bool
	// TopSize is the size past which a set widens to every class created anywhere;
	// 0 means DefaultTopSize. Tests make it small to exercise widening on small
	// programs.
	TopSize int
	// Flow, when not nil, gives the def-use facts of a method with code and makes
	// the sets per value (TFA); nil keeps one set per method (XTA).
	Flow func(*hierarchy.Method) (*facts.Flow, error)
	// Summarised, when not nil, names the methods whose code the sets do not
	// follow: Zhuo and Zhang's library methods (their Section 4.2.3), the JDK's.
	// Every value of such a method is any object of its declared type (created
	// anywhere), and what it is handed it may keep, store in any field or array,
	// pass on or return, so the elements of arrays, the fields the summarised code
	// writes, what native code holds and what it is handed are any object of
	// their types. Only the other methods' values have sets of their own. nil
	// follows every method.
	Summarised func(*hierarchy.Method) bool
	// Members gives the current members of one of the solver's target sets, as
	// method IDs (an ID past the last method is not a method: the solver's
	// NativeMethod node), so that the oracle need not keep a copy of each set.
	Members func(set int32) []int32
}

// DefaultTopSize: on javacc with the JDK, 512 took 15.5 s and 64 9.6 s for two more
// reachable methods (of 207,555); sets of over 64 classes tell little.
const DefaultTopSize = 64

// New returns an oracle over h for one run.
func New(h *hierarchy.Hierarchy, cfg Config) algo.Follower {
	nm, nf, nc := len(h.Methods()), len(h.Fields()), len(h.Classes())
	o := &oracle{
		h:          h,
		nm:         int32(nm),
		nodes:      make([]node, nm+nf+numSpecial),
		global:     make([]bool, nc),
		all:        make([]bool, nc),
		subBits:    make([][]uint64, nc),
		gSubs:      map[int32][]int32{},
		aSubs:      map[int32][]int32{},
		filters:    map[filterKey]int32{},
		thrown:     h.Class("java/lang/Throwable"),
		reached:    make([]bool, nm),
		topIdx:     map[int32]int{},
		topByType:  map[int32][]int32{},
		topSeen:    map[[2]int32]bool{},
		encap:      cfg.Encap,
		single:     make([]int32, nc),
		paramF:     make([]int32, nm),
		returnF:    make([]int32, nm),
		topSize:    cfg.TopSize,
		facts:      make([]*facts.Method, nm),
		members:    cfg.Members,
		summarised: cfg.Summarised,
	}
	if cfg.Flow != nil {
		o.flow = cfg.Flow
		o.vals = make([][]valNode, nm)
		o.params = make([]int32, nm)
		o.paramTypes = make([][]int32, nm)
		o.opaque = make([]bool, nm)
		o.scopes = map[scopeKey]algo.Value{}
		o.through = map[int32]int32{}
		o.createsOnly = map[siteKey]bool{}
	}
	if o.topSize <= 0 {
		o.topSize = DefaultTopSize
	}
	base := int32(nm + nf)
	o.elems, o.heap, o.escape, o.held = base, base+1, base+2, base+3
	o.nodes[o.elems].out = append(o.nodes[o.elems].out, edge{to: o.heap, filter: noFilter})
	o.nodes[o.held].out = append(o.nodes[o.held].out, edge{to: o.heap, filter: noFilter})
	o.nodes[o.escape].out = append(o.nodes[o.escape].out, edge{to: o.elems, filter: noFilter})
	o.any = o.newNode()
	o.nodes[o.any].top = true
	o.none = o.newNode()
	o.classNodes = map[int32]int32{}
	if o.summarised != nil {
		// Summarised code stores, holds and hands on objects of every class.
		for _, id := range []int32{o.elems, o.heap, o.escape, o.held} {
			o.makeTop(id)
		}
	}
	return o
}

// Special nodes after the method and field nodes.
const numSpecial = 4

// noFilter lets every class along an edge.
const noFilter = -1

type oracle struct {
	h  *hierarchy.Hierarchy
	nm int32 // number of methods: field f's node is nm + f.ID

	// Nodes: methods by ID (XTA: the method's set; TFA: its return), then fields by
	// ID, then elems, heap, escape and held, then any (TFA: a value nobody traced,
	// top from the start) and none (TFA: values that hold no object the sets
	// track; nothing links into it), then the others as they are made: the
	// argument and result nodes of the solver's target sets (hubs), and TFA's value
	// nodes.
	nodes                     []node
	exts                      []nodeExt
	elems, heap, escape, held int32
	any, none                 int32
	classNodes                map[int32]int32 // TFA: by class ID, the node of values holding that class alone
	hubs                      []hub           // by set handle
	reached                   []bool
	global, all               []bool            // by class ID: seen everywhere (the JVM's objects); created anywhere
	globalOrder               []int32           // global classes in the order they came
	allOrder                  []int32           // every created class in the order it came
	subs                      []sub             // questions asked
	gSubs, aSubs              map[int32][]int32 // by declared type: questions on nodes (told of global classes) and on any object
	subBits                   [][]uint64        // by class ID: the IDs of its subtypes, made on first use
	filters                   map[filterKey]int32
	filterBits                [][]uint64           // by filter: the classes it lets pass; nil for one class (isSub)
	filterTypes               [][]*hierarchy.Class // by filter: the types whose subtypes pass
	single                    []int32              // by class ID: 2 + the filter of that class alone, 0 until made
	paramF                    []int32              // by method ID: the filter of its parameters (cached, see cachedFilter)
	returnF                   []int32              // by method ID: the filter of its result
	queue                     []int32
	told                      []answer // answers to give
	draining                  bool
	thrown                    *hierarchy.Class
	// encap: fields of the application and its libraries that are not public
	// join the escaped values only once ownAccess; ownFields are their nodes
	// made before.
	encap     bool
	topSize   int
	ownAccess bool
	ownFields []int32
	// Top nodes feed filtered edges: every class created anywhere that passes
	// filter topFilters[i] goes to each node of topTo[i].
	topFilters []int32
	topTo      [][]int32
	topClasses [][]int32 // by index of topFilters: the created classes it passes
	topIdx     map[int32]int
	topByType  map[int32][]int32 // class ID -> indices of the top filters naming it
	topSeen    map[[2]int32]bool

	facts      []*facts.Method // by method ID, once reached
	members    func(set int32) []int32
	summarised func(*hierarchy.Method) bool // Config.Summarised
	through    map[int32]int32              // TFA: by summarised method ID, passThrough's answer
	// TFA only (flow not nil); see values.go.
	flow       func(*hierarchy.Method) (*facts.Flow, error)
	vals       [][]valNode // by method ID: its value nodes, sorted by pc and operand
	params     []int32     // by method ID: its first parameter node, 0 until made
	paramTypes [][]int32   // by method ID: 3 + each parameter's filter, 1 for none (cachedFilter)
	opaque     []bool      // by method ID: its code could not be analysed
	scopes     map[scopeKey]algo.Value
	// createsOnly: the calls whose value their creating calls alone give.
	createsOnly map[siteKey]bool
}

// node is kept small (TFA makes millions): what few nodes need is in a nodeExt.
type node struct {
	order  []int32 // members, in the order they came
	out    []edge
	done   int32 // order[:done] went along every edge in out
	ext    int32 // 1 + the index of its nodeExt; 0 for none
	queued bool
	field  bool // a field's node: escaped values join it
	// top: the node holds every class created anywhere (RTA's answer). A node
	// becomes top when its set outgrows Config.TopSize or a top node feeds it unfiltered,
	// which keeps the cost of the sets that would hold most of the program at
	// RTA's instead of one copy per method.
	top bool
}

// nodeExt holds the parts of a node that only large or questioned nodes have.
type nodeExt struct {
	sorted  []int32           // members, sorted, once there are more than smallSet
	outSeen map[edge]struct{} // the edges of out, once there are many
	subs    []int32           // the questions asked about it
}

// edge passes the classes its filter accepts.
type edge struct {
	to     int32
	filter int32 // index into filterBits, or noFilter
}

// hub is a target set's meeting point: the arguments of every site calling it, and
// the results of every member. XTA has one node for all arguments; TFA has one per
// position (pos) for the sites that call as the instruction says, and args for what
// other sites hand.
type hub struct {
	args, ret  int32   // node IDs; 0 until made
	retTo      int32   // the first node the members' results go to, until ret is made
	sites      int32   // the sites feeding pos (TFA)
	pos        []int32 // TFA: a node per position, or while one site feeds them its operands' (-1: none)
	name, desc string  // what the sites feeding pos name; "" until one came
	elems      bool    // a site passes an array or a list: its elements reach members called otherwise
	creators   []creator
	// ctorCalls: sites that call the members without naming them (a lambda's
	// functional method): a constructor among the members makes the object that
	// such a call returns.
	ctorCalls []creator
}

// creator is a creating call: the instruction at pc in m (nil: the JVM).
type creator struct {
	m  *hierarchy.Method
	pc int32
}

// sub is one question: fn is told of every class of type t in node n (or, n < 0,
// created anywhere).
type sub struct {
	n   int32
	t   *hierarchy.Class
	fn  func(*hierarchy.Class)
	top bool // asked on a node that became top: answered from every created class
}

type filterKey string

type answer struct{ q, c int32 }

// smallSet is the size past which a set keeps a sorted copy for look-ups.
const smallSet = 16

// ext returns node id's nodeExt, making it on first use.
func (o *oracle) ext(id int32) *nodeExt {
	n := &o.nodes[id]
	if n.ext == 0 {
		o.exts = append(o.exts, nodeExt{})
		n.ext = int32(len(o.exts))
	}
	return &o.exts[n.ext-1]
}

// sorted returns node id's sorted members, nil while it has few.
func (o *oracle) sorted(id int32) []int32 {
	if e := o.nodes[id].ext; e != 0 {
		return o.exts[e-1].sorted
	}
	return nil
}

func (o *oracle) has(id, c int32) bool { return contains(o.nodes[id].order, o.sorted(id), c) }

// contains reports whether c is among members given in order and, for large sets,
// sorted.
func contains(order, sorted []int32, c int32) bool {
	if sorted != nil {
		_, ok := slices.BinarySearch(sorted, c)
		return ok
	}
	return slices.Contains(order, c)
}

// insert adds c, reporting whether it is new. Sets stay small (Config.TopSize), so a
// sorted list is enough.
func (o *oracle) insert(id, c int32) bool {
	if o.has(id, c) {
		return false
	}
	n := &o.nodes[id]
	n.order = append(n.order, c)
	switch {
	case n.ext != 0 && o.exts[n.ext-1].sorted != nil:
		e := &o.exts[n.ext-1]
		i, _ := slices.BinarySearch(e.sorted, c)
		e.sorted = slices.Insert(e.sorted, i, c)
	case len(n.order) > smallSet:
		o.ext(id).sorted = slices.Sorted(slices.Values(o.nodes[id].order))
	}
	return true
}

// isSub reports whether c is t or a subtype of t. Below a class only classes
// descend, and the hierarchy tells a subclass at once; a bitset per class would
// cost the square of a deep chain's depth (100,000 classes: 40 s).
func (o *oracle) isSub(c int32, t *hierarchy.Class) bool {
	switch {
	case t == o.h.Object():
		return true
	case !t.IsInterface():
		return o.h.IsSubclass(o.h.Classes()[c], t)
	}
	return o.subtypes(t)[c/64]&(1<<(c%64)) != 0
}

// subtypes returns the membership bits of t and its subtypes.
func (o *oracle) subtypes(t *hierarchy.Class) []uint64 {
	b := o.subBits[t.ID]
	if b == nil {
		b = make([]uint64, (len(o.h.Classes())+63)/64)
		o.h.AllSubtypes(t, func(x *hierarchy.Class) bool {
			b[x.ID/64] |= 1 << (x.ID % 64)
			return true
		})
		o.subBits[t.ID] = b
	}
	return b
}

func (o *oracle) accepts(f int32, c int32) bool {
	if f == noFilter {
		return true
	}
	if b := o.filterBits[f]; b != nil {
		return b[c/64]&(1<<(c%64)) != 0
	}
	return o.isSub(c, o.filterTypes[f][0]) // one class (see filter)
}

// filter interns the filter of the given types: noFilter when one of them is
// Object (or unknown), ok false when there are none (nothing passes).
func (o *oracle) filter(ts []*hierarchy.Class) (f int32, ok bool) {
	if len(ts) == 0 {
		return 0, false
	}
	if len(ts) == 1 && ts[0] != nil {
		// The common case, without building a key.
		if v := o.single[ts[0].ID]; v != 0 {
			return v - 2, true
		}
		defer func() { o.single[ts[0].ID] = f + 2 }()
	}
	key := make([]byte, 0, 4*len(ts))
	for _, t := range ts {
		if t == nil || t.Phantom || t == o.h.Object() {
			return noFilter, true
		}
		key = append(key, byte(t.ID), byte(t.ID>>8), byte(t.ID>>16), byte(t.ID>>24))
	}
	k := filterKey(key)
	if f, ok := o.filters[k]; ok {
		return f, true
	}
	f = int32(len(o.filterBits))
	var b []uint64
	switch {
	case len(ts) == 1 && !ts[0].IsInterface():
		// nil: accepts asks isSub, without a bitset.
	case len(ts) == 1:
		b = o.subtypes(ts[0]) // shared, never written
	default:
		b = make([]uint64, (len(o.h.Classes())+63)/64)
		for _, t := range ts {
			for i, w := range o.subtypes(t) {
				b[i] |= w
			}
		}
	}
	o.filterBits = append(o.filterBits, b)
	o.filterTypes = append(o.filterTypes, slices.Clone(ts))
	o.filters[k] = f
	return f, true
}

// typeOf is the class of a field or return descriptor that may hold objects the
// sets track: nil and false for primitives, void and arrays (arrays are not
// tracked; their elements are in the elems node), Object's class for a missing one.
func (o *oracle) typeOf(desc string) (*hierarchy.Class, bool) {
	if len(desc) < 3 || desc[0] != 'L' {
		return nil, false
	}
	c := o.h.Class(desc[1 : len(desc)-1])
	if c == nil || c.Phantom {
		return o.h.Object(), true
	}
	return c, true
}

// paramFilter is what a method's parameters (this included) accept.
func (o *oracle) paramFilter(m *hierarchy.Method) (int32, bool) {
	return cachedFilter(&o.paramF[m.ID], func() (int32, bool) { return o.makeParamFilter(m) })
}

// returnFilter is what a method's result accepts.
func (o *oracle) returnFilter(m *hierarchy.Method) (int32, bool) {
	return cachedFilter(&o.returnF[m.ID], func() (int32, bool) { return o.makeReturnFilter(m) })
}

// cachedFilter returns the filter cached in *v (0: not yet; 1: nothing passes;
// else 3 + the filter, noFilter being -1), making it on first use.
func cachedFilter(v *int32, build func() (int32, bool)) (int32, bool) {
	switch *v {
	case 0:
		f, ok := build()
		if !ok {
			*v = 1
			return 0, false
		}
		*v = f + 3
		return f, true
	case 1:
		return 0, false
	}
	return *v - 3, true
}

func (o *oracle) makeParamFilter(m *hierarchy.Method) (int32, bool) {
	var ts []*hierarchy.Class
	if !m.IsStatic() {
		ts = append(ts, m.Class)
	}
	forEachParam(m.Desc, func(d string) {
		if c, ok := o.typeOf(d); ok {
			ts = append(ts, c)
		}
	})
	return o.filter(ts)
}

func (o *oracle) makeReturnFilter(m *hierarchy.Method) (int32, bool) {
	c, ok := o.typeOf(returnDesc(m.Desc))
	if !ok {
		return 0, false
	}
	return o.filter([]*hierarchy.Class{c})
}

// newNode appends a node and returns its ID.
func (o *oracle) newNode() int32 {
	o.nodes = append(o.nodes, node{})
	return int32(len(o.nodes) - 1)
}

func (o *oracle) fieldNode(f *hierarchy.Field) int32 {
	id := o.nm + f.ID
	if n := &o.nodes[id]; !n.field {
		n.field = true
		n.out = append(n.out, edge{to: o.heap, filter: noFilter})
		if o.encap && !o.ownAccess && f.Class.Origin != hierarchy.JDK && f.Access&accPublic == 0 {
			o.ownFields = append(o.ownFields, id)
		} else {
			o.escapeTo(id, f)
		}
	}
	return id
}

// escapeTo lets escaped values of a fitting type into field f's node id.
func (o *oracle) escapeTo(id int32, f *hierarchy.Field) {
	if t, ok := o.typeOf(f.Desc); ok {
		if fl, ok := o.filter([]*hierarchy.Class{t}); ok {
			o.link(o.escape, id, fl)
		}
	}
}

// grantsFieldAccess reports whether a call hands out access to fields named at run
// time: what lets JDK code write a class's private fields under Encap-Respect.
func grantsFieldAccess(ref classfile.Ref) bool {
	switch ref.Class {
	case "java/util/concurrent/atomic/AtomicReferenceFieldUpdater", "java/lang/reflect/Field",
		"sun/misc/Unsafe", "jdk/internal/misc/Unsafe":
		return true
	case "java/lang/invoke/MethodHandles$Lookup":
		switch ref.Name {
		case "findVarHandle", "findStaticVarHandle", "unreflectVarHandle", "findSetter", "findStaticSetter", "unreflectSetter":
			return true
		}
	}
	return false
}

// CreatesOnly keeps the results of the direct targets of the call at pc in caller
// out of its value (algo.Follower): its creating calls give it. XTA's one set per
// method has no value of its own for the call.
func (o *oracle) CreatesOnly(caller *hierarchy.Method, pc int32) {
	if o.flow != nil {
		o.createsOnly[siteKey{caller.ID, pc}] = true
	}
}

// siteKey is a call instruction: its method's ID and pc.
type siteKey struct{ m, pc int32 }

// Written lets escaped values into field f (algo.Follower): code the sets do not
// follow writes it, whatever the level says of access.
func (o *oracle) Written(f *hierarchy.Field) {
	o.escapeTo(o.fieldNode(f), f)
	o.drain()
}

// grantOwnAccess lets escaped values into every field from now on.
func (o *oracle) grantOwnAccess() {
	if o.ownAccess {
		return
	}
	o.ownAccess = true
	fs := o.h.Fields()
	for _, id := range o.ownFields {
		o.escapeTo(id, fs[id-o.nm])
	}
	o.ownFields = nil
}

const accPublic = 0x0001

// link adds an edge and sends along it what its source has propagated already.
func (o *oracle) link(from, to, f int32) {
	if from == to || o.nodes[to].top {
		return
	}
	if o.nodes[from].top {
		o.topEdge(to, f)
		return
	}
	n := &o.nodes[from]
	e := edge{to: to, filter: f}
	var seen map[edge]struct{}
	if n.ext != 0 {
		seen = o.exts[n.ext-1].outSeen
	}
	switch {
	case seen != nil:
		if _, dup := seen[e]; dup {
			return
		}
		seen[e] = struct{}{}
	case len(n.out) < smallSet:
		if slices.Contains(n.out, e) {
			return
		}
	default:
		if slices.Contains(n.out, e) {
			return
		}
		seen = make(map[edge]struct{}, 2*len(n.out))
		for _, x := range n.out {
			seen[x] = struct{}{}
		}
		seen[e] = struct{}{}
		o.ext(from).outSeen = seen
		n = &o.nodes[from]
	}
	n.out = append(n.out, e)
	if !n.queued && n.done < int32(len(n.order)) {
		// A node is queued only while it has edges: what came before this first
		// edge has not gone anywhere yet.
		n.queued = true
		o.queue = append(o.queue, from)
	}
	for _, c := range n.order[:n.done] {
		if o.accepts(f, c) {
			o.add(to, c)
		}
	}
}

// add puts class c into node id, queueing it for the node's questions (tell) and
// for its edges (drain).
func (o *oracle) add(id, c int32) {
	if o.nodes[id].top {
		o.created(c)
		return
	}
	if !o.insert(id, c) {
		return
	}
	o.created(c)
	if e := o.nodes[id].ext; e != 0 && !o.global[c] {
		for _, qi := range o.exts[e-1].subs {
			if o.isSub(c, o.subs[qi].t) {
				o.tell(qi, c)
			}
		}
	}
	if n := &o.nodes[id]; n.top {
		return
	} else if len(n.order) > o.topSize {
		o.makeTop(id)
	} else if !n.queued && len(n.out) > 0 {
		n.queued = true
		o.queue = append(o.queue, id)
	}
}

// makeTop widens node id to every class created anywhere: its questions are
// answered as questions about any object, and its edges carry every class.
func (o *oracle) makeTop(id int32) {
	n := &o.nodes[id]
	if n.top {
		return
	}
	old := *n
	var oldExt nodeExt
	if n.ext != 0 {
		oldExt = o.exts[n.ext-1]
		o.exts[n.ext-1] = nodeExt{}
	}
	n.top = true
	n.order, n.out = nil, nil
	for _, qi := range oldExt.subs {
		q := &o.subs[qi]
		q.top = true
		o.aSubs[q.t.ID] = append(o.aSubs[q.t.ID], qi)
		o.eachCreated(q.t, func(c int32) {
			if !o.global[c] && !contains(old.order, oldExt.sorted, c) {
				o.tell(qi, c)
			}
		})
	}
	for _, e := range old.out {
		o.topEdge(e.to, e.filter)
	}
}

// topEdge feeds node to from a top node through filter f.
func (o *oracle) topEdge(to, f int32) {
	if o.nodes[to].top {
		return
	}
	if f == noFilter {
		o.makeTop(to)
		return
	}
	if o.topSeen[[2]int32{f, to}] {
		return
	}
	o.topSeen[[2]int32{f, to}] = true
	i, ok := o.topIdx[f]
	if !ok {
		i = len(o.topFilters)
		o.topIdx[f] = i
		o.topFilters = append(o.topFilters, f)
		o.topTo = append(o.topTo, nil)
		var cs []int32
		for _, c := range o.allOrder {
			if o.accepts(f, c) {
				cs = append(cs, c)
			}
		}
		o.topClasses = append(o.topClasses, cs)
		for _, t := range o.filterTypes[f] {
			o.topByType[t.ID] = append(o.topByType[t.ID], int32(i))
		}
	}
	o.topTo[i] = append(o.topTo[i], to)
	for j := 0; j < len(o.topClasses[i]) && !o.nodes[to].top; j++ {
		o.add(to, o.topClasses[i][j])
	}
}

// created records c as created somewhere, telling the questions about any object.
func (o *oracle) created(c int32) {
	if o.all[c] {
		return
	}
	o.all[c] = true
	o.allOrder = append(o.allOrder, c)
	cls := o.h.Classes()[c]
	if len(o.topFilters) > 0 {
		// The top filters c passes are those naming one of its supertypes.
		var fs []int32
		o.h.Supertypes(cls, func(s *hierarchy.Class) bool {
			for _, i := range o.topByType[s.ID] {
				if n := len(o.topClasses[i]); n == 0 || o.topClasses[i][n-1] != c {
					o.topClasses[i] = append(o.topClasses[i], c)
					fs = append(fs, i)
				}
			}
			return true
		})
		for _, i := range fs {
			for j := 0; j < len(o.topTo[i]); j++ {
				o.add(o.topTo[i][j], c)
			}
		}
	}
	o.h.Supertypes(cls, func(s *hierarchy.Class) bool {
		qs := o.aSubs[s.ID]
		for i := 0; i < len(qs); i++ {
			o.tell(qs[i], c)
			qs = o.aSubs[s.ID]
		}
		return true
	})
}

// addGlobal makes c seen by every question.
func (o *oracle) addGlobal(c int32) {
	if o.global[c] {
		return
	}
	o.global[c] = true
	o.globalOrder = append(o.globalOrder, c)
	// Tell first: created may put c into nodes (through top edges), after which
	// their questions would take it for told.
	o.h.Supertypes(o.h.Classes()[c], func(s *hierarchy.Class) bool {
		for _, qi := range o.gSubs[s.ID] {
			if q := &o.subs[qi]; !q.top && !o.has(q.n, c) {
				o.tell(qi, c)
			}
		}
		return true
	})
	o.created(c)
}

// drain propagates queued classes along edges until nothing is left. Questions'
// callbacks may call back into the oracle; only the outermost call drains.
func (o *oracle) drain() {
	if o.draining {
		return
	}
	o.draining = true
	// Both queues are read from a head index and reset once empty, so their
	// memory is reused rather than resliced away.
	toldHead, queueHead := 0, 0
	for queueHead < len(o.queue) || toldHead < len(o.told) {
		if toldHead < len(o.told) {
			a := o.told[toldHead]
			toldHead++
			if toldHead == len(o.told) {
				o.told, toldHead = o.told[:0], 0
			}
			o.subs[a.q].fn(o.h.Classes()[a.c])
			continue
		}
		id := o.queue[queueHead]
		queueHead++
		if queueHead == len(o.queue) {
			o.queue, queueHead = o.queue[:0], 0
		}
		n := &o.nodes[id]
		n.queued = false
		for !n.top && n.done < int32(len(n.order)) {
			c := n.order[n.done]
			n.done++
			for i := 0; i < len(n.out); i++ {
				e := n.out[i]
				if o.accepts(e.filter, c) {
					o.add(e.to, c)
				}
				n = &o.nodes[id] // add may grow o.nodes
			}
		}
	}
	o.draining = false
}

func (o *oracle) nodeOf(v algo.Value) int32 {
	if v.Kind == algo.Field {
		return o.fieldNode(v.Field)
	}
	if o.flow == nil {
		switch v.Kind {
		case algo.Operand, algo.Def, algo.Param, algo.Return:
			return v.In.ID
		}
		return -1
	}
	switch v.Kind {
	case algo.Operand:
		return o.operand(v.In, v.PC, v.N)
	case algo.Def:
		return o.def(v.In, v.PC)
	case algo.Param:
		return o.param(v.In, int(v.N))
	case algo.Return:
		return v.In.ID
	}
	return -1
}

// Types answers from the value's node (its method's under XTA) and the global classes; a
// value at no particular place has every class created anywhere.
func (o *oracle) Types(v algo.Value, fn func(*hierarchy.Class)) {
	t := v.Type
	id := o.nodeOf(v)
	qi := int32(len(o.subs))
	o.subs = append(o.subs, sub{n: id, t: t, fn: fn})
	if id >= 0 && o.nodes[id].top {
		o.subs[qi].top = true
		id = -1
	}
	if id < 0 {
		o.aSubs[t.ID] = append(o.aSubs[t.ID], qi)
		o.eachCreated(t, func(c int32) { o.tell(qi, c) })
		o.drain()
		return
	}
	e := o.ext(id)
	e.subs = append(e.subs, qi)
	o.gSubs[t.ID] = append(o.gSubs[t.ID], qi)
	for _, c := range o.nodes[id].order {
		if o.isSub(c, t) {
			o.tell(qi, c)
		}
	}
	o.eachGlobal(t, func(c int32) {
		if !o.has(id, c) {
			o.tell(qi, c)
		}
	})
	o.drain()
}

// tell queues the answer c to question qi. Answers are decided when the sets
// change and given in drain, so that a question's callback, which may change the
// sets, never runs between a change and the decisions it implies.
func (o *oracle) tell(qi, c int32) {
	if algo.Concrete(o.h.Classes()[c]) {
		o.told = append(o.told, answer{qi, c})
	}
}

// eachGlobal calls fn for each global class of type t.
func (o *oracle) eachGlobal(t *hierarchy.Class, fn func(c int32)) {
	o.eachOf(t, o.global, o.globalOrder, fn)
}

// eachCreated calls fn for each class of type t created anywhere.
func (o *oracle) eachCreated(t *hierarchy.Class, fn func(c int32)) {
	o.eachOf(t, o.all, o.allOrder, fn)
}

// eachOf calls fn for each concrete class of type t in a set given as flags and
// list: by walking t's subclasses when t is a class below Object (a tree, usually
// small), else the list. fn must not change the set (tell only queues).
func (o *oracle) eachOf(t *hierarchy.Class, in []bool, list []int32, fn func(c int32)) {
	if t.IsInterface() || t == o.h.Object() {
		for _, c := range list {
			if o.isSub(c, t) && algo.Concrete(o.h.Classes()[c]) {
				fn(c)
			}
		}
		return
	}
	o.h.AllSubtypes(t, func(x *hierarchy.Class) bool {
		if in[x.ID] && algo.Concrete(x) {
			fn(x.ID)
		}
		return true
	})
}

// Created puts c where v is: its method's or field's set; everywhere for a value
// at no particular place. Exceptions travel up the call stack to whichever handler
// catches them, which the sets do not follow: TFA makes what a handler catches any
// created object of its type (defsNode), and XTA, whose set of a method answers
// for the caught values too, makes exceptions global.
func (o *oracle) Created(v algo.Value, c *hierarchy.Class) {
	if !algo.Concrete(c) {
		return
	}
	if v.Kind == algo.Hidden {
		o.hidden(c.ID)
		o.drain()
		return
	}
	id := o.nodeOf(v)
	if id < 0 || o.globalException(c.ID) {
		o.addGlobal(c.ID)
	} else {
		o.add(id, c.ID)
	}
	o.drain()
}

// hidden records an object of class c made by code the program does not contain
// (algo.Hidden: the JVM's, native code's, a constructor reference's class). That
// code hands it to the program only as what calls into it return or pass on: a
// constructor reached without being named returns it (ctorCalls), and the JDK's
// code, summarised, returns, holds and stores any object created anywhere. So it
// is created at no value; without summarised code, everywhere.
func (o *oracle) hidden(c int32) {
	if o.summarised != nil && !o.globalException(c) {
		o.created(c)
	} else {
		o.addGlobal(c)
	}
}

// globalException reports whether class c is an exception the sets make global:
// XTA's (see Created).
func (o *oracle) globalException(c int32) bool {
	return o.flow == nil && o.thrown != nil && o.isSub(c, o.thrown)
}

// Scope is, under XTA, the method or field whose set answers, with the declared
// type; under TFA the value itself. It is the declared type alone once that set is
// top, so that questions on top nodes share their answers as RTA's do.
func (o *oracle) Scope(v algo.Value) algo.Value {
	id := o.nodeOf(v)
	if id < 0 || o.nodes[id].top {
		return algo.Any(v.Type)
	}
	if o.flow == nil && v.Kind != algo.Field {
		return algo.Value{Kind: algo.Def, In: v.In, PC: -1, Type: v.Type}
	}
	// Questions on one node share their answers: the first value asked about it
	// stands for the others (a local used as the receiver of several calls of one
	// method, as StringBuilder.append's).
	if first, ok := o.scopes[scopeKey{id, v.Type}]; ok {
		return first
	}
	o.scopes[scopeKey{id, v.Type}] = v
	return v
}

// scopeKey is a node and the declared type of a question about it.
type scopeKey struct {
	node int32
	t    *hierarchy.Class
}

func (*oracle) Fixed() bool { return false }

// Reached adds the edges of m's field and array accesses (and under TFA those of its
// returns, casts and call operands), and for a native method those of the native
// heap.
func (o *oracle) Reached(m *hierarchy.Method, f *facts.Method) {
	if o.reached[m.ID] {
		return
	}
	o.reached[m.ID] = true
	o.facts[m.ID] = f
	if m.IsNative() {
		o.native(m)
	}
	if f != nil && o.encap && m.Class.Origin != hierarchy.JDK {
		for i := range f.Calls {
			if grantsFieldAccess(f.Calls[i].Ref) {
				o.grantOwnAccess()
				break
			}
		}
	}
	switch {
	case o.isSummarised(m):
		// Its return (under XTA: its one set) is any object of its type.
		o.makeTop(m.ID)
	case f != nil && o.flow != nil:
		o.values(m, f)
	case f != nil:
		o.methodSet(m, f)
	}
	o.drain()
}

// returnNode returns the node of what m returns (under XTA: its one set). A
// summarised method's is top from its first use, not only once it is reached, so
// that the hundred thousand JDK members of a fallback set do not each get edges,
// and every created class, first.
func (o *oracle) returnNode(m *hierarchy.Method) int32 {
	if o.isSummarised(m) {
		o.makeTop(m.ID)
	}
	return m.ID
}

// isSummarised reports whether m's code is summarised (Config.Summarised). Native
// methods have no code: they keep the rules of native code.
func (o *oracle) isSummarised(m *hierarchy.Method) bool {
	return o.summarised != nil && !m.IsNative() && o.summarised(m)
}

// methodSet adds XTA's edges of m: its field reads and writes, its array loads and
// stores, all to and from m's one set.
func (o *oracle) methodSet(m *hierarchy.Method, f *facts.Method) {
	id := m.ID
	for i := range f.Fields {
		fa := &f.Fields[i]
		fd := o.refField(fa)
		if fd == nil {
			continue
		}
		fn := o.fieldNode(fd)
		if fa.Write {
			t, _ := o.typeOf(fd.Desc)
			if fl, ok := o.filter([]*hierarchy.Class{t}); ok {
				o.link(id, fn, fl)
			}
		} else {
			o.link(fn, id, noFilter)
		}
	}
	if f.Arrays&facts.ArrayLoad != 0 {
		o.link(o.elems, id, noFilter)
	}
	if f.Arrays&facts.ArrayStore != 0 {
		o.link(id, o.elems, noFilter)
	}
}

// refField resolves the field an access names when it holds references; nil when
// it holds primitives or does not resolve.
func (o *oracle) refField(fa *facts.FieldAccess) *hierarchy.Field {
	if len(fa.Ref.Desc) < 3 || fa.Ref.Desc[0] != 'L' {
		return nil
	}
	c := o.h.Class(fa.Ref.Class)
	if c == nil {
		return nil
	}
	fd, err := o.h.ResolveField(c, fa.Ref.Name, fa.Ref.Desc)
	if err != nil {
		return nil
	}
	return fd
}

// native adds the edges of the native heap for native method m.
func (o *oracle) native(m *hierarchy.Method) {
	writes := writesAnyField(m)
	hand := func(from int32) {
		o.link(from, o.held, noFilter)
		if writes {
			o.link(from, o.escape, noFilter)
		}
	}
	if o.flow == nil {
		hand(m.ID)
	} else {
		o.eachParam(m, func(p, _ int32) { hand(p) })
	}
	ret := returnDesc(m.Desc)
	switch {
	case m.Name == "clone" && m.Class == o.h.Object():
		// The JVM copies the receiver: under XTA its class is in the caller's set
		// already; under TFA the receiver's set is the result's.
		if o.flow != nil {
			o.link(o.param(m, 0), m.ID, noFilter)
		}
	case len(ret) > 1 && ret[0] == '[':
		o.link(o.held, o.elems, noFilter)
	default:
		if fl, ok := o.returnFilter(m); ok {
			o.link(o.heap, m.ID, fl)
		}
	}
}

// writesAnyField reports whether native m may store what it is given in fields or
// arrays that no bytecode names: Unsafe's accessors (and so VarHandles, field
// updaters and reflection built on them), reflective array stores, and the JVM's
// setters of System.in, out and err.
func writesAnyField(m *hierarchy.Method) bool {
	switch m.Class.Name {
	case "jdk/internal/misc/Unsafe", "sun/misc/Unsafe", "java/lang/reflect/Array":
		return true
	case "java/lang/System":
		return m.Name == "setIn0" || m.Name == "setOut0" || m.Name == "setErr0"
	}
	return false
}

func (o *oracle) hub(set int32) *hub {
	for int(set) >= len(o.hubs) {
		o.hubs = append(o.hubs, hub{})
	}
	return &o.hubs[set]
}

// hubArgs returns the node of the arguments of set's hub, making it (and linking it
// to the members) on first use.
func (o *oracle) hubArgs(set int32) int32 {
	if o.hub(set).args == 0 {
		id := o.newNode()
		o.hubs[set].args = id
		o.relink(set)
	}
	return o.hubs[set].args
}

// results links the results of set's members to node to. The first such node gets
// them directly: most sets have one call that uses their results (TFA's virtual
// calls), or none. A second makes the hub a node of its own.
func (o *oracle) results(set, to int32) {
	h := o.hub(set)
	switch {
	case h.ret != 0:
		o.link(h.ret, to, noFilter)
		return
	case h.retTo == to:
		return
	case h.retTo == 0:
		h.retTo = to
	default:
		// The first node keeps its direct links and gets later members' results
		// through the hub's node.
		id := o.newNode()
		o.hubs[set].ret = id
		o.link(id, o.hubs[set].retTo, noFilter)
		o.link(id, to, noFilter)
		to = id
	}
	o.eachMember(set, func(m *hierarchy.Method) {
		if f, ok := o.returnFilter(m); ok {
			o.link(o.resultOf(set, m), to, f)
		}
	})
}

// resultOf returns the node of what member m of set returns to the set's sites:
// for a summarised method that returns one of its parameters unchanged, called by
// sites that hand their operands by position, those operands' node; else m's
// return node.
func (o *oracle) resultOf(set int32, m *hierarchy.Method) int32 {
	h := &o.hubs[set]
	if h.name != m.Name || h.desc != m.Desc || !o.isSummarised(m) {
		return o.returnNode(m)
	}
	if p := o.passThrough(m); p >= 0 && int(p) < len(h.pos) && h.pos[p] >= 0 {
		return h.pos[p]
	}
	return o.returnNode(m)
}

// passThrough returns the parameter (this is 0) that summarised method m returns
// unchanged on every path, -1 when there is none. Its result is then the argument,
// not any object of its type: Objects.requireNonNull, Class.cast, a builder's
// "return this". Only TFA has the flow to tell.
func (o *oracle) passThrough(m *hierarchy.Method) int32 {
	if o.flow == nil {
		return -1
	}
	if v, ok := o.through[m.ID]; ok {
		return v
	}
	p := int32(-1)
	if fl := o.flowOf(m); fl != nil {
		ok := true
		fl.EachInstr(func(_ int, op bytecode.Opcode, operand func(int) []facts.Def) {
			if op != bytecode.Areturn || !ok {
				return
			}
			for _, d := range operand(0) {
				if d.Kind != facts.DefParam || (p >= 0 && int32(d.N) != p) {
					ok = false
					return
				}
				p = int32(d.N)
			}
		})
		if !ok {
			p = -1
		}
	}
	o.through[m.ID] = p
	return p
}

// Calls links what the caller hands to the target set's hub, and the members'
// results back to the call's result. A creating call's result has the classes of
// the constructors in the set.
func (o *oracle) Calls(caller *hierarchy.Method, pc int32, set int32, kind algo.CallKind) {
	switch {
	case caller == nil || o.isSummarised(caller):
		// The JVM and native code call with what they hold, and keep what they
		// get; so does summarised code, whose values are any object.
		o.link(o.held, o.hubArgs(set), noFilter)
		o.results(set, o.held)
	case o.flow == nil:
		o.link(caller.ID, o.hubArgs(set), noFilter)
		o.results(set, caller.ID)
	default:
		o.valueCall(caller, pc, set, kind)
	}
	switch {
	case kind == algo.Creating:
		cr := creator{m: caller, pc: pc}
		o.hubs[set].creators = append(o.hubs[set].creators, cr)
		// create only queues answers: the hub does not change meanwhile.
		o.eachMember(set, func(m *hierarchy.Method) { o.create(cr, m) })
	case caller != nil && pc >= 0 && !o.isSummarised(caller):
		if c := o.callAt(caller, pc); c != nil && c.Op != bytecode.Invokedynamic && c.Ref.Name != "<init>" {
			cr := creator{m: caller, pc: pc}
			o.hubs[set].ctorCalls = append(o.hubs[set].ctorCalls, cr)
			o.eachMember(set, func(m *hierarchy.Method) { o.create(cr, m) })
		}
	}
	o.drain()
}

// eachMember calls fn with each method of the solver's target set (Config.Members).
// They may include members not yet told (Member): linking them early is harmless,
// as links and classes are never doubled.
func (o *oracle) eachMember(set int32, fn func(*hierarchy.Method)) {
	all := o.h.Methods()
	for _, id := range o.members(set) {
		if id < o.nm {
			fn(all[id])
		}
	}
}

// Member links a member of a target set to the set's hub.
func (o *oracle) Member(set int32, callee *hierarchy.Method) {
	o.hub(set)
	o.linkMember(set, callee)
	ret := o.hubs[set].ret
	if ret == 0 {
		ret = o.hubs[set].retTo
	}
	if ret != 0 {
		if f, ok := o.returnFilter(callee); ok {
			o.link(o.resultOf(set, callee), ret, f)
		}
	}
	for _, cr := range o.hubs[set].creators {
		o.create(cr, callee)
	}
	for _, cr := range o.hubs[set].ctorCalls {
		o.create(cr, callee)
	}
	o.drain()
}

// linkMember links the hub's arguments to callee's parameters.
func (o *oracle) linkMember(set int32, callee *hierarchy.Method) {
	h := &o.hubs[set]
	if o.flow == nil {
		if o.isSummarised(callee) {
			o.returnNode(callee) // its one set is any object: nothing passed needs an edge
			return
		}
		if f, ok := o.paramFilter(callee); ok && h.args != 0 {
			o.link(h.args, callee.ID, f)
		}
		return
	}
	positional := h.name != "" && callee.Name == h.name && callee.Desc == h.desc
	args, pos, elems := h.args, h.pos, h.elems // link may grow o.hubs
	for i, f := range o.paramFilters(callee) {
		if f == 1 {
			continue
		}
		p, f := o.param(callee, i), f-3
		if args != 0 {
			o.link(args, p, f)
		}
		switch {
		case positional:
			if i < len(pos) && pos[i] >= 0 {
				o.link(pos[i], p, f)
			}
		default:
			for _, a := range pos {
				if a >= 0 {
					o.link(a, p, f)
				}
			}
			if elems {
				o.link(o.elems, p, f)
			}
		}
	}
}

// create records the object a creating call makes when it runs constructor m.
func (o *oracle) create(cr creator, m *hierarchy.Method) {
	if m.Name != "<init>" || !algo.Concrete(m.Class) {
		return
	}
	if cr.m == nil {
		o.hidden(m.Class.ID) // the JVM or native code creates it
		return
	}
	if o.globalException(m.Class.ID) {
		o.addGlobal(m.Class.ID)
		return
	}
	if o.flow == nil || cr.pc < 0 {
		o.add(cr.m.ID, m.Class.ID)
		return
	}
	if c := o.callAt(cr.m, cr.pc); c == nil || c.Op == bytecode.Invokedynamic {
		// Not a call's own result but a shared node (values.go, aliases): the
		// object may be anywhere.
		o.addGlobal(m.Class.ID)
		return
	}
	o.add(o.def(cr.m, cr.pc), m.Class.ID)
}

// Captured passes what the lambda's creator captures at the invokedynamic at pc to
// the parameters of the lambda's method.
func (o *oracle) Captured(from *hierarchy.Method, pc int32, to *hierarchy.Method) {
	if o.flow == nil {
		if f, ok := o.paramFilter(to); ok {
			o.link(from.ID, to.ID, f)
		}
		o.drain()
		return
	}
	if c := o.callAt(from, pc); c != nil {
		o.eachParam(to, func(p, f int32) {
			eachRefOperand(c, func(n int32) { o.link(o.operand(from, pc, n), p, f) })
		})
	}
	o.drain()
}

// forEachParam calls fn with each parameter descriptor of a method descriptor.
// A malformed descriptor ends the walk.
func forEachParam(desc string, fn func(string)) {
	for i := 1; i < len(desc) && desc[i] != ')'; {
		j := i
		for j < len(desc) && desc[j] == '[' {
			j++
		}
		if j < len(desc) && desc[j] == 'L' {
			for j < len(desc) && desc[j] != ';' {
				j++
			}
		}
		if j >= len(desc) {
			return
		}
		fn(desc[i : j+1])
		i = j + 1
	}
}

func returnDesc(desc string) string {
	for i := len(desc) - 1; i >= 0; i-- {
		if desc[i] == ')' {
			return desc[i+1:]
		}
	}
	return ""
}
