package typeflow

import (
	"cmp"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// TFA's value nodes. A method's values are its parameters (one node each), its
// return (the method's node), the result of each instruction that may push an
// object (a call, a field or array load, a cast, an allocation), and each operand
// that a call, a field or array store, a return or a cast reads: the node of its
// one reaching definition, or a node joining several (facts.Flow's def-use). Values
// moving through locals and the stack need no node of their own.

// valNode is the node of operand n of the instruction at pc, or (n == defN) of the
// value the instruction pushes.
type valNode struct{ pc, n, node int32 }

const defN = -1

func cmpVal(a, b valNode) int {
	if a.pc != b.pc {
		return cmp.Compare(a.pc, b.pc)
	}
	return cmp.Compare(a.n, b.n)
}

func (o *oracle) lookup(m *hierarchy.Method, pc, n int32) (int32, bool) {
	vs := o.vals[m.ID]
	if i, ok := slices.BinarySearchFunc(vs, valNode{pc: pc, n: n}, cmpVal); ok {
		return vs[i].node, true
	}
	return 0, false
}

func (o *oracle) store(m *hierarchy.Method, pc, n, node int32) {
	v := valNode{pc, n, node}
	i, _ := slices.BinarySearchFunc(o.vals[m.ID], v, cmpVal)
	o.vals[m.ID] = slices.Insert(o.vals[m.ID], i, v)
}

// def returns the node of what the instruction at pc in m pushes.
func (o *oracle) def(m *hierarchy.Method, pc int32) int32 {
	if o.opaque[m.ID] || o.isSummarised(m) {
		return o.any
	}
	if id, ok := o.lookup(m, pc, defN); ok {
		return id
	}
	id := o.newNode()
	o.store(m, pc, defN, id)
	return id
}

// operand returns the node of operand n of the instruction at pc in m (facts.Flow's
// numbering: the receiver of an instance call is 0). Nodes are made as m is reached;
// one asked for later comes from m's flow made anew.
func (o *oracle) operand(m *hierarchy.Method, pc, n int32) int32 {
	switch {
	case o.opaque[m.ID]:
		return o.any
	case o.isSummarised(m):
		return o.localOperand(m, pc, n)
	}
	if id, ok := o.lookup(m, pc, n); ok {
		return id
	}
	fl := o.flowOf(m)
	if fl == nil {
		return o.any
	}
	ops := fl.Operands(int(pc))
	if int(n) >= len(ops) {
		return o.any // not an instruction with that operand: nothing is known
	}
	id := o.defsNode(m, ops[n])
	o.store(m, pc, n, id)
	return id
}

// defsNode returns the node of a value with the given reaching definitions.
func (o *oracle) defsNode(m *hierarchy.Method, defs []facts.Def) int32 {
	var buf [4]int32
	ids := buf[:0]
	for _, d := range defs {
		switch d.Kind {
		case facts.DefParam:
			ids = append(ids, o.param(m, d.N))
		case facts.DefInstr:
			ids = append(ids, o.def(m, int32(d.N)))
		case facts.DefCaught:
			// Thrown exceptions travel up the call stack, which the sets do not
			// follow: a caught one is any created object of its type.
			ids = append(ids, o.any)
		default:
			return o.any
		}
	}
	return o.union(ids)
}

// union returns a node holding what the nodes ids hold: none for no node, the node
// itself for one, else a node they feed.
func (o *oracle) union(ids []int32) int32 {
	switch len(ids) {
	case 0:
		return o.none
	case 1:
		return ids[0]
	}
	u := o.newNode()
	for _, id := range ids {
		o.link(id, u, noFilter)
	}
	return u
}

// param returns the node of parameter i of m (this is 0 of an instance method).
func (o *oracle) param(m *hierarchy.Method, i int) int32 {
	fs := o.paramFilters(m)
	if i < 0 || i >= len(fs) || o.isSummarised(m) {
		return o.any
	}
	base := o.params[m.ID]
	if base == 0 {
		base = int32(len(o.nodes))
		for range fs {
			o.newNode()
		}
		o.params[m.ID] = base
	}
	return base + int32(i)
}

// paramFilters returns, for each parameter of m (this included), 3 + the filter of
// its type, or 1 where it holds no objects the sets track (primitives, arrays).
func (o *oracle) paramFilters(m *hierarchy.Method) []int32 {
	if fs := o.paramTypes[m.ID]; fs != nil {
		return fs
	}
	fs := make([]int32, 0, 4)
	one := func(c *hierarchy.Class, ok bool) {
		var v int32 = 1
		if ok {
			if f, ok := o.filter([]*hierarchy.Class{c}); ok {
				v = f + 3
			}
		}
		fs = append(fs, v)
	}
	if !m.IsStatic() {
		one(m.Class, true)
	}
	forEachParam(m.Desc, func(d string) { one(o.typeOf(d)) })
	o.paramTypes[m.ID] = fs
	return fs
}

// eachParam calls fn with the node and filter of each parameter of m that may hold
// objects.
func (o *oracle) eachParam(m *hierarchy.Method, fn func(node, filter int32)) {
	for i, f := range o.paramFilters(m) {
		if f != 1 {
			fn(o.param(m, i), f-3)
		}
	}
}

func (o *oracle) flowOf(m *hierarchy.Method) *facts.Flow {
	fl, err := o.flow(m)
	if err != nil {
		return nil
	}
	return fl
}

// values adds the edges of m's body under TFA, in two passes over its instructions
// (the facts' lists are in code order too): the first names the nodes of the values
// that need none of their own, the second links operands.
func (o *oracle) values(m *hierarchy.Method, f *facts.Method) {
	fl := o.flowOf(m)
	if fl == nil {
		o.opaqueMethod(m)
		return
	}
	o.aliases(m, f, fl)
	var fi, ti, ci int
	fl.EachInstr(func(pc int, op bytecode.Opcode, operand func(int) []facts.Def) {
		p := int32(pc)
		node := func(n int32) int32 {
			if id, ok := o.lookup(m, p, n); ok {
				return id
			}
			id := o.any
			if defs := operand(int(n)); defs != nil {
				id = o.defsNode(m, defs)
			}
			o.store(m, p, n, id)
			return id
		}
		switch op {
		case bytecode.Aaload:
			def := o.def(m, p)
			o.arrays(node(0), func(elems int32) { o.link(elems, def, noFilter) })
		case bytecode.Aastore:
			// elems keeps what every array holds: calls that pass an array's
			// elements as parameters read it (passesElems).
			val := node(2)
			o.link(val, o.elems, noFilter)
			o.arrays(node(0), func(elems int32) { o.link(val, elems, noFilter) })
		case bytecode.Areturn:
			if flt, ok := o.returnFilter(m); ok {
				o.link(node(0), m.ID, flt)
			}
		case bytecode.Getfield, bytecode.Getstatic, bytecode.Putfield, bytecode.Putstatic:
			for fi < len(f.Fields) && f.Fields[fi].PC < p {
				fi++
			}
			if fi < len(f.Fields) && f.Fields[fi].PC == p {
				o.fieldAccess(m, &f.Fields[fi], node)
			}
		case bytecode.Checkcast:
			for ti < len(f.TypeChecks) && f.TypeChecks[ti].PC < p {
				ti++
			}
			if ti < len(f.TypeChecks) && f.TypeChecks[ti].PC == p {
				o.cast(m, &f.TypeChecks[ti], node)
			}
		case bytecode.Invokevirtual, bytecode.Invokespecial, bytecode.Invokestatic, bytecode.Invokeinterface, bytecode.Invokedynamic:
			// The operands of calls, made now while the flow is at hand.
			for ci < len(f.Calls) && f.Calls[ci].PC < p {
				ci++
			}
			if ci < len(f.Calls) && f.Calls[ci].PC == p {
				eachRefOperand(&f.Calls[ci], func(n int32) { node(n) })
			}
		}
	})
}

// aliases gives the instructions whose result is some other node's set that node:
// a field read the field's, an array load the elements', an allocation its class's,
// a constant its class's (String, Class; any class for method handles and dynamic
// constants), null and new arrays the empty node (arrays hold no classes the sets
// track; their elements are elems). Calls and casts get nodes of their own, when an
// operand first names them. No edge ever goes into an alias: only calls, casts and
// allocations receive classes at their own pc.
func (o *oracle) aliases(m *hierarchy.Method, f *facts.Method, fl *facts.Flow) {
	var fi, ai, si, ki, ci int
	fl.Instrs(func(pc int, op bytecode.Opcode) {
		p := int32(pc)
		at := func(i *int, n int, pcOf func(int) int32) bool {
			for *i < n && pcOf(*i) < p {
				*i++
			}
			return *i < n && pcOf(*i) == p
		}
		alias := int32(-1)
		switch op {
		case bytecode.Getfield, bytecode.Getstatic:
			if at(&fi, len(f.Fields), func(i int) int32 { return f.Fields[i].PC }) && !f.Fields[fi].Write {
				if fd := o.refField(&f.Fields[fi]); fd != nil {
					alias = o.fieldNode(fd)
				}
			}
		case bytecode.New:
			if at(&ai, len(f.Allocs), func(i int) int32 { return f.Allocs[i].PC }) {
				c := o.h.Class(f.Allocs[ai].Type)
				switch {
				case c == nil || !algo.Concrete(c):
				case o.summarised != nil && containerFamily(c.Name) != notContainer && c.Origin == hierarchy.JDK:
					alias = o.containerNode(m, p, c, containerFamily(c.Name))
				default:
					alias = o.classNode(c.ID)
				}
			}
		case bytecode.Ldc, bytecode.LdcW:
			switch {
			case at(&si, len(f.StringConsts), func(i int) int32 { return f.StringConsts[i].PC }):
				alias = o.constant("java/lang/String")
			case at(&ki, len(f.ClassConsts), func(i int) int32 { return f.ClassConsts[i].PC }):
				alias = o.constant("java/lang/Class")
			default:
				alias = o.any // a method type or handle, or a dynamic constant (or a number: never an object operand)
			}
		case bytecode.AconstNull, bytecode.Newarray:
			alias = o.none
		case bytecode.Anewarray:
			alias = o.arrayNode(m, p)
		case bytecode.Multianewarray:
			alias = o.anyArrayNode() // the JVM makes the nested arrays
		case bytecode.Invokedynamic:
			if at(&ci, len(f.Calls), func(i int) int32 { return f.Calls[i].PC }) {
				alias = o.indyResult(m, &f.Calls[ci])
			}
		}
		if alias >= 0 {
			o.store(m, p, defN, alias)
		}
	})
}

// classNode returns the node shared by the values that hold class c alone: the
// allocations of c and the constants of class c, which the solver's Created at
// each of them fills.
func (o *oracle) classNode(c int32) int32 {
	if id, ok := o.classNodes[c]; ok {
		return id
	}
	id := o.newNode()
	o.classNodes[c] = id
	return id
}

// constant returns the node of constants of the named class (the JVM creates them).
func (o *oracle) constant(name string) int32 {
	c := o.h.Class(name)
	if c == nil {
		return o.any
	}
	return o.classNode(c.ID)
}

// indyResult returns the node of what the invokedynamic at pc in m pushes: a
// String for string concatenation; the lambda it creates for LambdaMetafactory's
// (lambdaNode); anything of its type otherwise (records' and switches' bootstraps
// push no object; others are rare).
func (o *oracle) indyResult(m *hierarchy.Method, c *facts.Call) int32 {
	if c.Indy == nil {
		return o.none
	}
	ret := returnDesc(c.Indy.Desc)
	switch {
	case len(ret) == 0 || ret[0] != 'L':
		return o.none
	case ret == "Ljava/lang/String;":
		return o.constant("java/lang/String")
	case c.Indy.Bootstrap.Class == lambdaMetafactory:
		return o.lambdaNode(m, c.PC, ret[1:len(ret)-1])
	}
	return o.any
}

// fieldAccess links a field read to the value it pushes, and a write's value to the
// field.
func (o *oracle) fieldAccess(m *hierarchy.Method, fa *facts.FieldAccess, operand func(int32) int32) {
	fd := o.refField(fa)
	if fd == nil {
		return
	}
	fn := o.fieldNode(fd)
	if !fa.Write {
		o.link(fn, o.def(m, fa.PC), noFilter)
		return
	}
	n := int32(1) // putfield: the object, then the value
	if fa.Static {
		n = 0
	}
	t, _ := o.typeOf(fd.Desc)
	if flt, ok := o.filter([]*hierarchy.Class{t}); ok {
		o.link(operand(n), fn, flt)
	}
}

// cast lets the classes of a checkcast's type pass from its operand to its result.
func (o *oracle) cast(m *hierarchy.Method, tc *facts.TypeCheck, operand func(int32) int32) {
	if tc.Instanceof || tc.Type == "" {
		return
	}
	if tc.Type[0] == '[' {
		if refArray(tc.Type) {
			o.link(operand(0), o.def(m, tc.PC), noFilter) // only arrays pass
		}
		return
	}
	if flt, ok := o.filter([]*hierarchy.Class{o.h.Class(tc.Type)}); ok {
		o.link(operand(0), o.def(m, tc.PC), flt)
	}
}

// opaqueMethod treats a method whose code cannot be analysed as native code: what it
// is given may be held or written anywhere, and it may return anything held or
// stored; its values are all top.
func (o *oracle) opaqueMethod(m *hierarchy.Method) {
	o.opaque[m.ID] = true
	o.eachParam(m, func(p, _ int32) {
		o.link(p, o.held, noFilter)
		o.link(p, o.escape, noFilter)
	})
	if flt, ok := o.returnFilter(m); ok {
		o.link(o.heap, m.ID, flt)
	}
}

// eachRefOperand calls fn with the number of each operand of a call that may hold
// an object the sets track: the receiver of an instance call, and parameters of a
// class type.
func eachRefOperand(c *facts.Call, fn func(n int32)) {
	desc := c.Ref.Desc
	var n int32
	switch c.Op {
	case bytecode.Invokedynamic:
		if c.Indy == nil {
			return
		}
		desc = c.Indy.Desc
	case bytecode.Invokestatic:
	default:
		fn(0)
		n = 1
	}
	forEachParam(desc, func(d string) {
		if d[0] == 'L' || refArray(d) {
			fn(n)
		}
		n++
	})
}

// callAt returns the call instruction at pc of a reached method, nil when there is
// none (the site is an allocation or a static field access that runs an
// initialiser, or not an instruction).
func (o *oracle) callAt(m *hierarchy.Method, pc int32) *facts.Call {
	f := o.facts[m.ID]
	if f == nil {
		return nil
	}
	i, ok := slices.BinarySearchFunc(f.Calls, pc, func(c facts.Call, pc int32) int { return cmp.Compare(c.PC, pc) })
	if !ok {
		return nil
	}
	return &f.Calls[i]
}

// valueCall links the site at pc in caller to set's hub under TFA. A call whose
// instruction names what it calls (an invoke of the same name and descriptor as the
// hub's first such site) hands its operands position by position; any other site
// (reflection, method handles, Thread.start, the JVM's own calls at allocations and
// field accesses, natives calling back) hands all it has to every parameter.
func (o *oracle) valueCall(caller *hierarchy.Method, pc, set int32, kind algo.CallKind) {
	h := o.hub(set)
	if pc < 0 {
		// A native (level 6's model) or the NativeMethod node calls back with what
		// the native was given, and the JVM keeps the results.
		o.eachParam(caller, func(p, _ int32) { o.link(p, o.hubArgs(set), noFilter) })
		o.results(set, o.held)
		return
	}
	c := o.callAt(caller, pc)
	if c != nil && kind == algo.Direct {
		defer o.modelCall(caller, c)
	}
	relink := false
	if c != nil && kind == algo.Direct && standard(c.Op) {
		if h.name == "" {
			h.name, h.desc, relink = c.Ref.Name, c.Ref.Desc, true
		}
		if c.Ref.Name == h.name && c.Ref.Desc == h.desc {
			h.sites++
			if h.sites == 1 {
				// The first such site's operands stand for the positions: a set
				// with one site (TFA's virtual calls: one set per receiver) makes
				// no node of its own.
				eachRefOperand(c, func(n int32) {
					for int(n) >= len(h.pos) {
						h.pos = append(h.pos, -1)
					}
					h.pos[n] = o.operand(caller, pc, n)
				})
				o.result(caller, c, set)
				o.relink(set)
				return
			}
			if h.sites == 2 {
				// A second site: positions get nodes, fed by the first site's
				// operands too.
				for i, first := range h.pos {
					if first >= 0 {
						id := o.newNode()
						o.hubs[set].pos[i] = id
						o.link(first, id, noFilter)
					}
				}
				relink = true
			}
			eachRefOperand(c, func(n int32) {
				for int(n) >= len(o.hubs[set].pos) {
					o.hubs[set].pos = append(o.hubs[set].pos, -1)
				}
				if o.hubs[set].pos[n] < 0 {
					id := o.newNode()
					o.hubs[set].pos[n] = id
					relink = true
				}
				o.link(o.operand(caller, pc, n), o.hubs[set].pos[n], noFilter)
			})
			o.result(caller, c, set)
			if relink {
				o.relink(set)
			}
			return
		}
	}
	args := o.hubArgs(set)
	switch {
	case c == nil:
	case c.Op == bytecode.Invokedynamic && c.Indy != nil && readsOperands(c.Indy.Bootstrap.Class):
		// An invokedynamic's operands go to its call site's target, not to
		// the bootstrap method, which gets the site's constants: a lambda's
		// captures to its implementation (Captured); the JDK's targets for
		// string concatenation, records' methods and pattern switches only
		// read them (toString, the record's fields, the class).
	default:
		eachRefOperand(c, func(n int32) { o.link(o.operand(caller, pc, n), args, noFilter) })
	}
	if c != nil {
		if kind == algo.Direct {
			o.result(caller, c, set)
		}
		if passesElems(c) && !o.hubs[set].elems {
			o.hubs[set].elems, relink = true, true
		}
	}
	// What the instruction pushes: the object an allocation makes (its finaliser
	// runs on it), the one a creating call makes (its constructor's this).
	o.link(o.def(caller, pc), args, noFilter)
	if relink {
		o.relink(set)
	}
}

// result links the results of set's members to the value call c pushes, when it
// pushes objects. An invokedynamic's members are its bootstrap methods, whose
// result is the call site, not what the instruction pushes (aliases says that).
func (o *oracle) result(caller *hierarchy.Method, c *facts.Call, set int32) {
	if c.Op == bytecode.Invokedynamic || o.createsOnly[siteKey{caller.ID, c.PC}] {
		return
	}
	r := returnDesc(c.Ref.Desc)
	if len(r) == 0 || r[0] != 'L' && !refArray(r) {
		return
	}
	def := o.def(caller, c.PC)
	if _, _, ok := o.modelledCall(c); ok {
		// The container model gives what modelled members return
		// (containers.go); the others' results go to their own node list.
		h := o.hub(set)
		h.modelTo = append(h.modelTo, def)
		o.eachMember(set, func(m *hierarchy.Method) {
			if !o.modelledMember(m) {
				o.linkResult(set, m, def)
			}
		})
		return
	}
	o.results(set, def)
}

// relink links the hub's arguments to every member again after they changed.
func (o *oracle) relink(set int32) {
	o.eachMember(set, func(m *hierarchy.Method) { o.linkMember(set, m) })
}

// readsOperands reports whether the call sites a bootstrap class makes only read
// what the invokedynamic hands them, or (LambdaMetafactory) hand it to code the
// solver reports (Captured).
func readsOperands(bootstrap string) bool {
	switch bootstrap {
	case lambdaMetafactory, "java/lang/invoke/StringConcatFactory", "java/lang/runtime/ObjectMethods", "java/lang/runtime/SwitchBootstraps":
		return true
	}
	return false
}

func standard(op bytecode.Opcode) bool {
	switch op {
	case bytecode.Invokevirtual, bytecode.Invokespecial, bytecode.Invokestatic, bytecode.Invokeinterface:
		return true
	}
	return false
}

// passesElems reports whether a call passes an array of references or a list, whose
// elements (in the elems set) a callee called other than by name may receive as
// parameters: Method.invoke, Constructor.newInstance, invokeWithArguments.
func passesElems(c *facts.Call) bool {
	desc := c.Ref.Desc
	if c.Op == bytecode.Invokedynamic && c.Indy != nil {
		desc = c.Indy.Desc
	}
	found := false
	forEachParam(desc, func(d string) {
		if len(d) > 1 && d[0] == '[' && (d[1] == 'L' || d[1] == '[') || d == "Ljava/util/List;" {
			found = true
		}
	})
	return found
}
