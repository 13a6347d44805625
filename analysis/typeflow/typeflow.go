package typeflow

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// The oracle's state, and where each concern lives: sets.go (set storage and
// type filters), propagate.go (edges, widening to top, the work queue),
// questions.go (what the solver asks: Types, Scope), events.go (what the solver
// tells: reached methods, calls, members, lambdas), jvm.go (the rules for what
// bytecode does not show: native code, the JVM's objects, fields written by
// name) and values.go (TFA's value nodes).

// Config is what a run tells the analysis beyond the program.
type Config struct {
	// Encap says whether the run's assumption level has reflection and native
	// code obey access rules (callgraph.Level.RespectsEncapsulation).
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
	// Captures, when not nil, gives how many leading parameters of m (its
	// receiver first) every lambda or method reference with implementation m
	// binds at its capture: LambdaMetafactory passes those captured values, never
	// the arguments of the calls that reach m through the lambda (TFA). 0 when
	// not known.
	Captures func(m *hierarchy.Method) int
}

// DefaultTopSize: on javacc with the JDK, 512 took 15.5 s and 64 9.6 s for two more
// reachable methods (of 207,555); sets of over 64 classes tell little.
const DefaultTopSize = 64

// New returns an oracle over h for one run.
func New(h *hierarchy.Hierarchy, cfg Config) algo.Follower {
	nm, nf, nc := len(h.Methods()), len(h.Fields()), len(h.Classes())
	o := &oracle{
		h:            h,
		nm:           int32(nm),
		nc:           int32(nc),
		extraIDs:     map[siteKey]int32{},
		nodes:        make([]node, nm+nf+numSpecial),
		global:       make([]bool, nc),
		all:          make([]bool, nc),
		createdAt:    make([]int32, nc),
		subBits:      make([][]uint64, nc),
		gSubs:        map[int32][]int32{},
		aSubs:        map[int32][]int32{},
		filters:      map[filterKey]int32{},
		thrown:       h.Class("java/lang/Throwable"),
		reached:      make([]bool, nm),
		handed:       make([]bool, nf),
		topIdx:       map[int32]int{},
		topByType:    map[int32][]int32{},
		topSeen:      map[[2]int32]bool{},
		lambdaIfaces: map[int32]int{},
		encap:        cfg.Encap,
		single:       make([]int32, nc),
		paramF:       make([]int32, nm),
		returnF:      make([]int32, nm),
		topSize:      cfg.TopSize,
		facts:        make([]*facts.Method, nm),
		members:      cfg.Members,
		summarised:   cfg.Summarised,
		captures:     cfg.Captures,
	}
	if cfg.Flow != nil {
		o.flow = cfg.Flow
		o.vals = make([][]valNode, nm)
		o.params = make([]int32, nm)
		o.paramTypes = make([][]int32, nm)
		o.opaque = make([]bool, nm)
		o.scopes = map[scopeKey]algo.Value{}
		o.returns = map[int32]*returned{}
		o.freshNodes = map[int32]int32{}
		o.createsOnly = map[siteKey]bool{}
		o.containers = map[int32]int32{}
		o.views = map[viewKey]int32{}
		o.modelAsked = map[siteKey]bool{}
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
			o.makeTop(id, topCause{kind: topUnfollowed})
		}
	}
	if o.flow != nil {
		o.anyArray = o.newExtra(extraObj{kind: objArray, elems: o.elems})
		o.created(o.anyArray)
		o.sink = o.newNode()
	}
	return o
}

// Special nodes after the method and field nodes.
const numSpecial = 4

type oracle struct {
	h  *hierarchy.Hierarchy
	nm int32 // number of methods: field f's node is nm + f.ID
	// nc is the number of classes. The sets hold class IDs below it, and above it
	// lambdas and arrays, one ID per instruction that creates them (objects.go).
	nc       int32
	extraIDs map[siteKey]int32 // creating instruction -> its objects' ID
	extra    []extraObj        // by ID - nc
	anyArray int32             // the arrays nobody traced (TFA)
	sink     int32             // where what flows into top nodes is seen: arrays escape there (TFA)
	tr       *tracer           // Trace: nil unless the run explains values (trace.go)

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
	createdAt                 []int32           // by class ID: its index in allOrder, once created
	extraOrder                []int32           // every created lambda and array (objects.go), likewise
	extraAt                   []int32           // by ID - nc: its index in extraOrder, once created
	arrayOrder                []int32           // the created arrays, in order
	lambdasByIface            [][]int32         // the created lambdas by interface: its class ID, then theirs in order
	lambdaIfaces              map[int32]int     // interface class ID -> its index in lambdasByIface
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
	// are open to code the sets do not follow (reach the heap, receive the
	// escaped values) only once ownAccess or handed (jvm.go, guarded);
	// ownFields are their nodes made before.
	encap     bool
	topSize   int
	ownAccess bool
	ownFields []int32
	handed    []bool // by field ID: a method handle of the field is in reached code
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
	captures   func(*hierarchy.Method) int  // Config.Captures
	capturedN  map[int32]int                // its answers, by method ID
	summarised func(*hierarchy.Method) bool // Config.Summarised
	returns    map[int32]*returned          // TFA: by summarised method ID, what it returns (nil: unknown)
	freshNodes map[int32]int32              // TFA: by summarised method ID, the node of the objects it returns new
	lastCode   methodCode                   // TFA: the summarised method whose facts localObjects read last
	// TFA only (flow not nil); see values.go.
	flow       func(*hierarchy.Method) (*facts.Flow, error)
	vals       [][]valNode // by method ID: its value nodes, sorted by pc and operand
	params     []int32     // by method ID: its first parameter node, 0 until made
	paramTypes [][]int32   // by method ID: 3 + each parameter's filter, 1 for none (cachedFilter)
	opaque     []bool      // by method ID: its code could not be analysed
	scopes     map[scopeKey]algo.Value
	// createsOnly: the calls whose value their creating calls alone give.
	createsOnly map[siteKey]bool
	// The container model (containers.go): the nodes of new containers, by
	// node; the views, by container, class and keys; the modelled calls whose
	// question was asked.
	containers map[int32]int32
	views      map[viewKey]int32
	modelAsked map[siteKey]bool
}
