package typeflow

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// The solver's events (algo.Follower): methods reached, creations, calls of
// target sets and their members, lambdas' captured arguments, fields written.

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
	// lambda: the members are reached through lambda objects (LambdaDispatch), so
	// what the sites hand does not reach the parameters an implementation's
	// lambdas bind at their capture (capturedParams).
	lambda   bool
	modelTo  []int32 // TFA: the results of modelled calls (containers.go): what other members return goes there
	creators []creator
	// anywhere: a creator among creators makes its objects where every creator
	// of the kind (createsAnywhere) makes them, so that another need not be
	// kept: a fallback set of twenty thousand constructors has hundreds.
	anywhere [2]bool
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

// Created puts c where v is: its method's or field's set; everywhere for a value
// at no particular place. Exceptions travel up the call stack to whichever handler
// catches them, which the sets do not follow: TFA makes what a handler catches any
// created object of its type (defsNode), and XTA, whose set of a method answers
// for the caught values too, makes exceptions global.
func (o *oracle) Created(v algo.Value, c *hierarchy.Class) {
	if !algo.Concrete(c) {
		return
	}
	if v.Kind == algo.Def && o.containers != nil {
		if o.isContainer(o.nodeOf(v)) {
			o.created(c.ID) // the node holds the container itself (containers.go)
			o.drain()
			return
		}
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
			if grantsFieldAccess(*f.Calls[i].Ref) {
				o.grantOwnAccess()
				break
			}
		}
		o.handedFields(f)
	}
	switch {
	case o.isSummarised(m):
		// Its return (under XTA: its one set) is any object of its type.
		o.makeTop(m.ID, topCause{kind: topSummarised, m: m})
		if f != nil && o.flow != nil {
			o.summarisedLambdas(m, f)
		}
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
		o.makeTop(m.ID, topCause{kind: topSummarised, m: m})
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
	if (len(fa.Ref.Desc) < 3 || fa.Ref.Desc[0] != 'L') && (o.flow == nil || !refArray(fa.Ref.Desc)) {
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
	o.eachMember(set, func(m *hierarchy.Method) { o.linkResult(set, m, to) })
}

// linkResult links what member m of set returns to node to. Nothing goes into a
// top node, so the summaries of a fallback's hundred thousand members, whose
// results the JVM keeps (held), are never read.
func (o *oracle) linkResult(set int32, m *hierarchy.Method, to int32) {
	if o.nodes[to].top {
		return
	}
	if f, ok := o.returnFilter(m); ok {
		o.link(o.resultOf(set, m), to, f)
	}
}

// Calls links what the caller hands to the target set's hub, and the members'
// results back to the call's result. A creating call's result has the classes of
// the constructors in the set.
func (o *oracle) Calls(caller *hierarchy.Method, pc int32, set int32, kind algo.CallKind) {
	if kind == algo.Initializes {
		return // an initialiser takes nothing and returns nothing
	}
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
		if k, ok := o.createsAnywhere(cr); ok {
			if o.hubs[set].anywhere[k] {
				break // the same classes, created the same way
			}
			o.hubs[set].anywhere[k] = true
		}
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
		o.linkResult(set, callee, ret)
	}
	if !o.modelledMember(callee) {
		for _, to := range o.hubs[set].modelTo {
			o.linkResult(set, callee, to)
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
	if onlyReads(callee) && o.isSummarised(callee) {
		return // what it is handed does not escape (jvm.go)
	}
	positional := h.name != "" && callee.Name == h.name && callee.Desc == h.desc
	args, pos, elems := h.args, h.pos, h.elems // link may grow o.hubs
	if positional && o.modelledMember(callee) {
		pos = nil // the container model links what the sites hand it (containers.go)
	}
	bound := 0
	if h.lambda && !positional {
		bound = o.capturedParams(callee)
	}
	for i, f := range o.paramFilters(callee) {
		if f == 1 || i < bound {
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
	switch at := o.creationNode(cr); {
	case at == createdHidden:
		o.hidden(m.Class.ID) // the JVM or native code creates it
	case at == createdGlobal || o.globalException(m.Class.ID):
		o.addGlobal(m.Class.ID)
	default:
		o.add(at, m.Class.ID)
	}
}

// Where creationNode says a creating call's objects go besides a node.
const (
	createdGlobal = -1 // seen everywhere (addGlobal)
	createdHidden = -2 // made by the JVM or native code (hidden)
)

// creationNode returns the node of the objects creating call cr makes, or
// createdGlobal or createdHidden.
func (o *oracle) creationNode(cr creator) int32 {
	switch {
	case cr.m == nil:
		return createdHidden
	case o.flow == nil || cr.pc < 0:
		return cr.m.ID
	}
	if c := o.callAt(cr.m, cr.pc); c == nil || c.Op == bytecode.Invokedynamic {
		// Not a call's own result but a shared node (values.go, aliases): the
		// object may be anywhere.
		return createdGlobal
	}
	return o.def(cr.m, cr.pc)
}

// createsAnywhere reports whether creating call cr makes its objects where
// every other such call does, and which kind (index into hub.anywhere): into a
// top node (a summarised method's values), whose objects are created anywhere,
// or everywhere. Such a call creates nothing the first of its kind on the same
// target set does not.
func (o *oracle) createsAnywhere(cr creator) (int, bool) {
	switch at := o.creationNode(cr); {
	case at == createdGlobal:
		return 1, true
	case at >= 0 && o.nodes[at].top:
		return 0, true
	}
	return 0, false
}

// LambdaDispatch marks set's hub as reached through lambda objects
// (algo.LambdaFollower).
func (o *oracle) LambdaDispatch(set int32) { o.hub(set).lambda = true }

// capturedParams returns how many leading parameters of m its lambdas bind at
// their capture (Config.Captures).
func (o *oracle) capturedParams(m *hierarchy.Method) int {
	if o.captures == nil {
		return 0
	}
	n, ok := o.capturedN[m.ID]
	if !ok {
		n = o.captures(m)
		if o.capturedN == nil {
			o.capturedN = map[int32]int{}
		}
		o.capturedN[m.ID] = n
	}
	return n
}

// Captured passes what the lambda's creator captures at the invokedynamic at pc to
// the parameters of the lambda's method: LambdaMetafactory passes operand n as
// parameter n (the receiver of an instance method first), or n+1 for a
// constructor, whose parameter 0 is the object it makes.
func (o *oracle) Captured(from *hierarchy.Method, pc int32, to *hierarchy.Method) {
	if o.flow == nil {
		if f, ok := o.paramFilter(to); ok {
			o.link(from.ID, to.ID, f)
		}
		o.drain()
		return
	}
	if c := o.callAt(from, pc); c != nil {
		shift := int32(0)
		if to.Name == "<init>" {
			shift = 1
		}
		fs := o.paramFilters(to)
		eachRefOperand(c, func(n int32) {
			if i := n + shift; int(i) < len(fs) && fs[i] != 1 {
				o.link(o.operand(from, pc, n), o.param(to, int(i)), fs[i]-3)
			}
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
