package typeflow

import (
	"fmt"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Tracing (algo.Tracer): for the classes a run traces, each node remembers the
// node it first received one from, and each top node why it became top. That is
// one map entry per node a traced class reaches, and nothing at all in runs that
// trace nothing (tr nil): the recording is for `why`, not for every run.

// Sources of an arrival other than a node.
const (
	createdHere = -1 // the class was added where it is created
	fromTop     = -2 // it came from a top node through a filter (tracer.topSrc)
)

// unmodelled is where an object escapes when the collection model lets it: a
// call the model does not cover was made on it, or handed it.
const unmodelled = -1

// arrival is the first way a node received a traced class: from node from, or
// createdHere, or fromTop.
type arrival struct{ from int32 }

// topKind says why a node became top.
type topKind uint8

const (
	topSummarised topKind = iota + 1 // the value of a summarised method (Config.Summarised)
	topUnfollowed                    // what code the sets do not follow holds or stores, with the JDK summarised
	topWidened                       // more than topSize classes came
	topFed                           // an edge without filter from top node from
	topEscaped                       // the contents of object obj, which flowed into top node from (or unmodelled)
	topUntraced                      // a value whose origin the analysis does not trace (TFA's any)
	topCopied                        // the contents of collection obj, copied from what node from holds
)

// topCause is why a node became top.
type topCause struct {
	kind      topKind
	from, obj int32
	m         *hierarchy.Method // topSummarised
}

type tracer struct {
	classes []bool         // by class ID
	impls   map[int32]bool // by method ID: the implementations of traced lambdas
	lambdas map[int32]bool // by lambda ID: whether it is traced, once asked
	// arrivals holds, by node and traced class, the first arrival.
	arrivals map[[2]int32]arrival
	// topSrc holds, by node, the first top node that fed it through a filter.
	topSrc map[int32]int32
	// sinkTo holds, by node, the first top node it was linked to: an object that
	// escapes through the sink went there.
	sinkTo map[int32]int32
	tops   map[int32]topCause
	src    int32            // the node the class being added comes from (addFrom)
	names  map[int32]string // describe's index, made on the first Explain
}

// Trace implements algo.Tracer.
func (o *oracle) Trace(cs []*hierarchy.Class, impls []*hierarchy.Method) {
	o.tr = &tracer{classes: make([]bool, o.nc), impls: map[int32]bool{}, lambdas: map[int32]bool{},
		arrivals: map[[2]int32]arrival{}, topSrc: map[int32]int32{}, sinkTo: map[int32]int32{},
		tops: map[int32]topCause{}, src: createdHere}
	for _, c := range cs {
		o.tr.classes[c.ID] = true
	}
	for _, m := range impls {
		o.tr.impls[m.ID] = true
	}
	// The nodes that are top from the start (New).
	for _, id := range []int32{o.elems, o.heap, o.escape, o.held} {
		if o.nodes[id].top {
			o.tr.tops[id] = topCause{kind: topUnfollowed}
		}
	}
	o.tr.tops[o.any] = topCause{kind: topUntraced}
}

// addFrom adds class c to node to as it flows from node from (or createdHere,
// fromTop), which the tracer records.
func (o *oracle) addFrom(from, to, c int32) {
	if o.tr == nil {
		o.add(to, c)
		return
	}
	prev := o.tr.src
	o.tr.src = from
	o.add(to, c)
	o.tr.src = prev
}

// arrived records that node id received c, if c is traced and id had none of it.
func (t *tracer) arrived(o *oracle, id, c int32) {
	if !t.traced(o, c) {
		return
	}
	k := [2]int32{id, c}
	if _, ok := t.arrivals[k]; !ok {
		t.arrivals[k] = arrival{t.src}
	}
}

// traced reports whether object c is traced: an object of a traced class, a
// container or view of one (a dispatch on it reaches the class's methods), or a
// lambda of a traced implementation.
func (t *tracer) traced(o *oracle, c int32) bool {
	if c < o.nc {
		return t.classes[c]
	}
	x := o.extra[c-o.nc]
	switch {
	case x.kind == objLambda:
		yes, ok := t.lambdas[c]
		if !ok {
			impl, _ := o.lambdaImpl(x)
			yes = impl != nil && t.impls[impl.ID]
			t.lambdas[c] = yes
		}
		return yes
	case x.kind == objView && x.cls == nil:
		// Of an open class: any object of its type, so it selects every
		// target of a dispatch on it, whichever classes are traced.
		return true
	case x.kind == objContainer || x.kind == objView:
		return x.cls != nil && t.classes[x.cls.ID]
	}
	return false
}

// lambdaImpl returns the implementation of lambda x and the kind of its method
// handle; nil when it does not resolve.
func (o *oracle) lambdaImpl(x extraObj) (*hierarchy.Method, uint8) {
	c := o.callAt(x.m, x.pc)
	if c == nil || c.Indy == nil {
		return nil, 0
	}
	impl, ok := c.Indy.LambdaImpl()
	if !ok {
		return nil, 0
	}
	ic := o.h.Class(impl.Ref.Class)
	if ic == nil {
		return nil, 0
	}
	m, err := o.h.ResolveMethod(ic, impl.Ref.Name, impl.Ref.Desc, impl.Ref.Interface)
	if err != nil || m == nil {
		return nil, 0
	}
	return m, impl.RefKind
}

// widened records why node id becomes top, once.
func (t *tracer) widened(id int32, why topCause) {
	if _, ok := t.tops[id]; !ok {
		t.tops[id] = why
	}
}

// fedByTop records the top node from which feeds node to through a filter.
func (t *tracer) fedByTop(from, to int32) {
	if _, ok := t.topSrc[to]; !ok {
		t.topSrc[to] = from
	}
}

// sinkVia records that node from, linked to top node to, feeds the sink instead.
func (t *tracer) sinkVia(from, to int32) {
	if _, ok := t.sinkTo[from]; !ok {
		t.sinkTo[from] = to
	}
}

// escapeCause is why the contents of object c become top as it reaches node
// into: the sink stands for the top node the object's node was linked to.
func (o *oracle) escapeCause(c, into int32) topCause {
	if o.tr != nil && into == o.sink {
		if to, ok := o.tr.sinkTo[o.tr.src]; ok {
			into = to
		}
	}
	return topCause{kind: topEscaped, from: into, obj: c}
}

// maxSteps bounds an explanation: past it, the chain says little more.
const maxSteps = 40

// Explain implements algo.Tracer.
func (o *oracle) Explain(v algo.Value, most int) []algo.Chain {
	if o.tr == nil || most <= 0 {
		return nil
	}
	id := o.nodeOf(v)
	if id < 0 {
		return nil
	}
	if o.nodes[id].top {
		return []algo.Chain{{Steps: o.chain(id, -1)}}
	}
	var out []algo.Chain
	for _, c := range o.nodes[id].order {
		if len(out) == most {
			return out
		}
		if _, ok := o.tr.arrivals[[2]int32{id, c}]; ok {
			out = append(out, algo.Chain{Object: o.objName(c), Steps: o.chain(id, c)})
		}
	}
	// Objects every value holds (addGlobal) are in no node's own set.
	for _, c := range o.globalOrder {
		if len(out) == most {
			break
		}
		if o.tr.traced(o, c) && (v.Type == nil || o.isSub(c, v.Type)) {
			why := "it is created where the analysis does not say which value holds it"
			if o.globalException(c) {
				why = "XTA's sets do not follow the call stack, which exceptions travel up"
			}
			out = append(out, algo.Chain{Object: o.objName(c), Steps: []string{o.describe(id) + ": every value may hold it, since " + why}})
		}
	}
	return out
}

// chain walks back from node id the arrivals of traced object c (-1 when id is
// top): each node it came from, to where it was created or to the node that
// became top, and why. Past a top node, the chain follows the node it became
// top through, which holds the object that escaped, not c.
func (o *oracle) chain(id, c int32) []string {
	var steps []string
	seen := map[int32]bool{}
	for len(steps) < maxSteps && id >= 0 && !seen[id] {
		seen[id] = true
		d := o.describe(id)
		if o.nodes[id].top {
			why := o.tr.tops[id]
			steps = append(steps, d+": any object of its type, "+o.topReason(why))
			switch why.kind {
			case topFed, topEscaped, topCopied:
				if why.from >= 0 {
					id = why.from
					continue
				}
			}
			return steps
		}
		a, ok := o.tr.arrivals[[2]int32{id, c}]
		switch {
		case !ok:
			return append(steps, d+o.holding(id))
		case a.from == createdHere && c >= o.nc && o.extra[c-o.nc].kind == objLambda:
			return append(steps, d+": the lambda is created here")
		case a.from == createdHere && c >= o.nc && o.extra[c-o.nc].kind == objView:
			return append(steps, d+": the view is made here")
		case a.from == createdHere:
			return append(steps, d+": "+o.objName(c)+" is created here")
		case a.from == fromTop:
			steps = append(steps, d)
			id = o.tr.topSrc[id]
		default:
			steps = append(steps, d)
			id = a.from
		}
	}
	return steps
}

// holding lists, for a node the chain stops at, the first objects it holds.
func (o *oracle) holding(id int32) string {
	const most = 3
	var names []string
	for _, c := range o.nodes[id].order {
		if len(names) == most {
			names = append(names, "...")
			break
		}
		names = append(names, o.objName(c))
	}
	if len(names) == 0 {
		return ""
	}
	return " (it holds " + strings.Join(names, ", ") + ")"
}

func (o *oracle) objName(c int32) string {
	if c >= o.nc {
		x := o.extra[c-o.nc]
		switch {
		case x.kind == objArray && x.m != nil:
			return "the array created at " + o.position(x.m, x.pc)
		case x.kind == objArray:
			return "an array the analysis does not trace"
		case x.kind == objLambda:
			return "the lambda created at " + o.position(x.m, x.pc)
		case x.cls != nil:
			return "a collection of class " + javaName(x.cls.Name)
		case x.kind == objView:
			return o.openViewName(x)
		}
		return "a collection"
	}
	return "an object of class " + javaName(o.classOf(c).Name)
}

// openViewName names a view of an open class (view, siteView): what a dispatch on
// it reaches is what any object of its type selects.
func (o *oracle) openViewName(x extraObj) string {
	const open = ", whose class the JDK's code does not tell: to a call on it, any object of its type the program creates"
	if x.of != 0 {
		what := "a view (an iterator, a map's keys or values...) of " + o.objName(x.of)
		if y := o.extra[x.of-o.nc]; y.m != nil {
			what += " created at " + o.position(y.m, y.pc)
		}
		return what + open
	}
	if x.m != nil {
		return "a collection made at " + o.position(x.m, x.pc) + open
	}
	return "a collection" + open
}

// topReason says why a node is top, as the end of a sentence.
func (o *oracle) topReason(why topCause) string {
	switch why.kind {
	case topSummarised:
		return "because " + javaMethod(why.m) + " is JDK code, which the analysis summarises: its values are any object created anywhere"
	case topUnfollowed:
		return "because code the analysis does not follow (native code, the JVM, the summarised JDK) may put any object there"
	case topCopied:
		return "because the collection whose contents it is copies them from a value holding something whose contents the collection model does not follow (any collection, or not a collection the program creates):"
	case topUntraced:
		return "because the analysis does not trace where it comes from"
	case topWidened:
		return fmt.Sprintf("because more than %d classes came into it (it was widened)", o.topSize)
	case topFed:
		return "because it receives, without a type test, what a value holding any object holds:"
	case topEscaped:
		what := "object"
		if why.obj >= o.nc {
			switch x := o.extra[why.obj-o.nc]; x.kind {
			case objArray:
				what = "array"
			case objContainer, objView:
				what = "collection"
			}
		}
		if why.from == unmodelled {
			return "because the " + what + " whose contents it is was handed to code the analysis does not follow (a call the collection model does not cover), which may store anything in it"
		}
		return "because the " + what + " whose contents it is reached code the analysis does not follow, which may store anything in it, through:"
	}
	return "for a reason the analysis did not record"
}

// describe names node id for a reader of Java: a parameter, a field, an
// instruction's value, an array's elements.
func (o *oracle) describe(id int32) string {
	nf := int32(len(o.h.Fields()))
	switch {
	case id < o.nm:
		m := o.h.Methods()[id]
		if o.flow == nil {
			return "the values of " + javaMethod(m)
		}
		return "what " + javaMethod(m) + " returns"
	case id < o.nm+nf:
		f := o.h.Fields()[id-o.nm]
		return "field " + javaName(f.Class.Name) + "." + f.Name + o.openness(f)
	case id == o.elems:
		return "the elements of the arrays the analysis does not trace"
	case id == o.heap:
		return "what native code may read (fields, and what it holds)"
	case id == o.escape:
		return "what native code may store into fields and arrays"
	case id == o.held:
		return "what the JVM and native code hold"
	case id == o.any:
		return "a value the analysis does not trace (a caught exception, a JDK value)"
	case id == o.sink && o.flow != nil:
		return "what reached code the analysis does not follow"
	}
	if o.tr.names == nil {
		o.tr.names = o.nodeNames()
	}
	if s, ok := o.tr.names[id]; ok {
		return s
	}
	return fmt.Sprintf("an intermediate value (node %d)", id)
}

// openness says, for a field that code the analysis does not follow may write
// (guarded), why; nothing for a guarded one.
func (o *oracle) openness(f *hierarchy.Field) string {
	const may = " (code the analysis does not follow may write it: "
	switch {
	case o.guarded(f):
		return ""
	case !o.encap:
		return may + "below Encap-Respect, reflection and native code ignore access)"
	case f.Class.Origin == hierarchy.JDK:
		return may + "it is the JDK's)"
	case o.handed[f.ID]:
		return may + "reached code makes a method handle of it)"
	case o.ownAccess:
		return may + "the program asks for access to fields by name: setAccessible, Unsafe, a field updater, a Lookup)"
	}
	return may + "it is public)"
}

// nodeNames names the nodes made as the run went: parameters, instructions'
// values and operands, the contents of arrays and collections, the hubs of call
// sites.
func (o *oracle) nodeNames() map[int32]string {
	names := map[int32]string{}
	ms := o.h.Methods()
	for mid, base := range o.params {
		if base == 0 {
			continue
		}
		m := ms[mid]
		for i := range o.paramFilters(m) {
			names[base+int32(i)] = paramName(m, i)
		}
	}
	for mid, vs := range o.vals {
		for _, v := range vs {
			if _, ok := names[v.node]; !ok {
				names[v.node] = o.valueName(ms[mid], v)
			}
		}
	}
	for _, x := range o.extra {
		where := "nowhere in particular"
		if x.m != nil {
			where = "at " + o.position(x.m, x.pc)
		}
		switch x.kind {
		case objArray:
			if x.m == nil {
				continue // elems, named above
			}
			names[x.elems] = "the elements of the array created " + where
		case objContainer:
			names[x.elems] = "the contents of the " + javaName(x.cls.Name) + " created " + where
			if x.keys != 0 {
				names[x.keys] = "the keys of the " + javaName(x.cls.Name) + " created " + where
			}
		case objView:
			names[x.elems] = "the contents that a view (an iterator, a map's values...) walks"
			if x.m != nil {
				names[x.elems] = "the contents that a view (an iterator, a map's values...) made " + where + " walks"
			}
			if x.keys != 0 {
				names[x.keys] = "the keys that a view made " + where + " walks"
			}
		}
	}
	for _, h := range o.hubs {
		if h.args != 0 {
			names[h.args] = "what the callers of a call's targets hand them"
		}
		if h.ret != 0 {
			names[h.ret] = "what the targets of a call return"
		}
	}
	for mid, n := range o.freshNodes {
		names[n] = "the objects " + javaMethod(ms[mid]) + " creates and returns"
	}
	for c, n := range o.classNodes {
		names[n] = "new " + javaName(o.h.Classes()[c].Name) + " (the allocations of the class that nothing else flows into share this value)"
	}
	return names
}

// paramName names parameter i of m (this is 0 of an instance method).
func paramName(m *hierarchy.Method, i int) string {
	if !m.IsStatic() {
		if i == 0 {
			return "the receiver (this) of " + javaMethod(m)
		}
		i--
	}
	return fmt.Sprintf("parameter %d of %s", i+1, javaMethod(m))
}

// valueName names an instruction's value (defN) or operand in m.
func (o *oracle) valueName(m *hierarchy.Method, v valNode) string {
	at := o.position(m, v.pc)
	f := o.facts[m.ID]
	if f == nil {
		return "a value at " + at
	}
	if v.n == defN {
		for i := range f.Allocs {
			if f.Allocs[i].PC == v.pc {
				if a := &f.Allocs[i]; a.Dims == 0 {
					return "new " + javaName(a.Type) + " at " + at
				}
				return "a new array at " + at
			}
		}
		for i := range f.Fields {
			if fa := &f.Fields[i]; fa.PC == v.pc {
				return "the value of field " + javaName(fa.Ref.Class) + "." + fa.Ref.Name + " read at " + at
			}
		}
		for i := range f.TypeChecks {
			if tc := &f.TypeChecks[i]; tc.PC == v.pc && !tc.Instanceof {
				return "the cast to " + javaName(tc.Type) + " at " + at
			}
		}
		if c := o.callAt(m, v.pc); c != nil && c.Indy == nil {
			return "the result of " + javaName(c.Ref.Class) + "." + c.Ref.Name + " at " + at
		} else if c != nil {
			return "the lambda or method reference made at " + at
		}
		if o.opAt(m, v.pc) == bytecode.Aaload {
			return "an element read from an array at " + at
		}
		return "the value pushed at " + at
	}
	if c := o.callAt(m, v.pc); c != nil && c.Indy == nil {
		call := javaName(c.Ref.Class) + "." + c.Ref.Name + " at " + at
		switch {
		case c.Op != bytecode.Invokestatic && v.n == 0:
			return "the receiver of the call to " + call
		case c.Op != bytecode.Invokestatic:
			return fmt.Sprintf("argument %d of the call to %s", v.n, call)
		}
		return fmt.Sprintf("argument %d of the call to %s", v.n+1, call)
	}
	return fmt.Sprintf("operand %d of the instruction at %s", v.n, at)
}

// opAt returns the opcode of the instruction at pc in m (Nop when not known).
func (o *oracle) opAt(m *hierarchy.Method, pc int32) bytecode.Opcode {
	op := bytecode.Nop
	if fl := o.flowOf(m); fl != nil {
		fl.Instrs(func(at int, x bytecode.Opcode) {
			if int32(at) == pc {
				op = x
			}
		})
	}
	return op
}

// position is "line L of M" (pc P when the line is not known).
func (o *oracle) position(m *hierarchy.Method, pc int32) string {
	if line := o.lineAt(m, pc); line > 0 {
		return fmt.Sprintf("line %d of %s", line, javaMethod(m))
	}
	return fmt.Sprintf("pc %d of %s", pc, javaMethod(m))
}

// lineAt returns the source line of the instruction at pc in m, -1 when the
// class file does not tell.
func (o *oracle) lineAt(m *hierarchy.Method, pc int32) int32 {
	if o.h.File(m.Class) == nil {
		return -1
	}
	code, err := o.h.Info(m).Code()
	if err != nil || code == nil {
		return -1
	}
	return int32(code.LineAt(int(pc)))
}

func javaName(internal string) string { return strings.ReplaceAll(internal, "/", ".") }

func javaMethod(m *hierarchy.Method) string {
	return javaName(m.Class.Name) + "." + m.Name + m.Desc
}
