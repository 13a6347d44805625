package hierarchy

import (
	"fmt"
	"hash/maphash"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

const objectName = "java/lang/Object"

// New links the classes of inputs into a hierarchy. Inputs whose File is nil and
// module-info classes are skipped. When two inputs define the same class, the first
// wins. New never fails: what it had to repair is listed by [Hierarchy.Problems].
func New(inputs []Input) *Hierarchy {
	h := &Hierarchy{seed: maphash.MakeSeed()}
	h.declare(inputs)
	h.link()
	order := h.sortSupertypesFirst()
	h.layout(order)
	h.linkSubtypes()
	h.linkNesting()
	h.methodHandle = h.byName["java/lang/invoke/MethodHandle"]
	h.varHandle = h.byName["java/lang/invoke/VarHandle"]
	return h
}

func (h *Hierarchy) problem(kind ProblemKind, class, format string, args ...any) {
	h.problems = append(h.problems, Problem{Kind: kind, Class: class, Msg: fmt.Sprintf(format, args...)})
}

// declare creates the classes with their methods and fields. Methods and fields are
// allocated in one block each: the JDK's third of a million small allocations would
// dominate the build time.
func (h *Hierarchy) declare(inputs []Input) {
	h.byName = make(map[string]*Class, len(inputs))
	arena := make([]Class, len(inputs))
	h.classes = make([]*Class, 0, len(inputs))
	// Where each class's methods and fields start in the blocks, and at the end the
	// totals.
	mstart := make([]int32, 1, len(inputs)+1)
	fstart := make([]int32, 1, len(inputs)+1)
	nm, nf := 0, 0
	for _, in := range inputs {
		f := in.File
		if f == nil || f.Access&classfile.AccModule != 0 {
			continue
		}
		if first := h.byName[f.Name]; first != nil {
			h.problem(Duplicate, f.Name, "class %s is defined more than once; the first definition (%s) wins", f.Name, first.Origin)
			continue
		}
		c := &arena[len(h.classes)]
		*c = Class{ID: int32(len(h.classes)), Name: f.Name, Access: f.Access, Origin: in.Origin, pkg: Package(f.Name)}
		c.NestHost = c
		h.byName[f.Name] = c
		h.classes = append(h.classes, c)
		h.files = append(h.files, f)
		nm += len(f.Methods)
		nf += len(f.Fields)
		mstart = append(mstart, int32(nm))
		fstart = append(fstart, int32(nf))
	}

	methods := make([]Method, nm)
	h.methods = make([]*Method, nm)
	hashes := make([]uint64, nm)
	fields := make([]Field, nf)
	h.fields = make([]*Field, nf)
	fill := func(lo, hi int) {
		for ci := lo; ci < hi; ci++ {
			c := h.classes[ci]
			m0, m1 := mstart[ci], mstart[ci+1]
			c.Methods, c.mhash = h.methods[m0:m1:m1], hashes[m0:m1:m1]
			for i := range h.files[ci].Methods {
				fm := &h.files[ci].Methods[i]
				id := m0 + int32(i)
				methods[id] = Method{ID: id, Class: c, Name: fm.Name, Desc: fm.Desc, Access: fm.Access, Index: int32(i)}
				h.methods[id] = &methods[id]
				hv := h.sigHash(fm.Name, fm.Desc)
				hashes[id] = hv
				c.sigs |= 1 << (hv >> 58)
			}
			f0, f1 := fstart[ci], fstart[ci+1]
			c.Fields = h.fields[f0:f1:f1]
			for i := range h.files[ci].Fields {
				ff := &h.files[ci].Fields[i]
				id := f0 + int32(i)
				fields[id] = Field{ID: id, Class: c, Name: ff.Name, Desc: ff.Desc, Access: ff.Access, Index: int32(i)}
				h.fields[id] = &fields[id]
			}
		}
	}
	// Filling in the members is most of the build's work (every signature is hashed),
	// and classes are independent: split them among the CPUs by method count.
	workers := min(runtime.GOMAXPROCS(0), 8)
	if nm < 1<<14 {
		workers = 1
	}
	var wg sync.WaitGroup
	lo := 0
	for w := 1; w <= workers; w++ {
		hi := len(h.classes)
		if w < workers {
			target := int32(nm * w / workers)
			hi, _ = slices.BinarySearch(mstart[:len(h.classes)], target)
			hi = max(hi, lo)
		}
		start := lo
		wg.Go(func() { fill(start, hi) })
		lo = hi
	}
	wg.Wait()
}

// link resolves supertype names, creating phantoms for missing ones.
func (h *Hierarchy) link() {
	n := 0
	for _, f := range h.files {
		n += len(f.Interfaces)
	}
	arena := make([]*Class, n)
	declared := len(h.classes) // phantoms are appended behind the declared classes
	for _, c := range h.classes[:declared] {
		f := h.files[c.ID]
		if c.Name == objectName {
			if f.Super != "" || len(f.Interfaces) > 0 {
				// Object must be the root for the cycle repair below to be safe.
				h.problem(BadSupertype, c.Name, "java/lang/Object declares supertypes; they are ignored")
			}
			continue
		}
		switch {
		case c.IsInterface() && f.Super != objectName:
			// JVMS 4.1 requires Object; anything else would let an interface hang
			// below a class and break the tree shape of class subtrees.
			h.problem(BadSupertype, c.Name, "interface %s has superclass %q instead of java/lang/Object", c.Name, f.Super)
			c.Super = h.ref(objectName, c, false)
		case f.Super != "":
			c.Super = h.ref(f.Super, c, false)
			if c.Super.IsInterface() && !c.Super.Phantom {
				h.problem(BadSupertype, c.Name, "%s has interface %s as its superclass", c.Name, c.Super.Name)
			}
		}
		if len(f.Interfaces) == 0 {
			continue
		}
		c.Interfaces, arena = arena[:0:len(f.Interfaces)], arena[len(f.Interfaces):]
		for _, name := range f.Interfaces {
			in := h.ref(name, c, true)
			if !in.IsInterface() {
				// The JVM refuses such a class (IncompatibleClassChangeError). Dropping
				// the edge keeps every class subtree a tree, which AllSubtypes relies on.
				h.problem(BadSupertype, c.Name, "%s has class %s as a superinterface; the edge is ignored", c.Name, in.Name)
				continue
			}
			c.Interfaces = append(c.Interfaces, in)
		}
	}
	h.object = h.byName[objectName]
}

// ref returns the class named name, creating a phantom when it is missing.
func (h *Hierarchy) ref(name string, from *Class, asInterface bool) *Class {
	if c := h.byName[name]; c != nil {
		return c
	}
	p := &Class{ID: int32(len(h.classes)), Name: name, Access: classfile.AccPublic, Origin: from.Origin, Phantom: true, pkg: Package(name)}
	kind := "superclass"
	if asInterface {
		p.Access |= classfile.AccInterface | classfile.AccAbstract
		kind = "superinterface"
	}
	p.NestHost = p
	h.byName[name] = p
	h.classes = append(h.classes, p)
	h.files = append(h.files, nil)
	h.problem(Missing, name, "%s %s of %s is missing", kind, name, from.Name)
	if name != objectName {
		// Every class ends in Object, so inheriting its methods through a phantom is a
		// better guess than inheriting nothing.
		p.Super = h.ref(objectName, p, false)
	}
	return p
}

// sortSupertypesFirst orders the classes so that every class follows its supertypes,
// dropping the edge that closes each supertype cycle on the way.
func (h *Hierarchy) sortSupertypesFirst() []*Class {
	const (
		white = iota
		grey  // on the DFS stack
		black
	)
	state := make([]uint8, len(h.classes))
	order := make([]*Class, 0, len(h.classes))
	var stack []*Class
	// A class whose superclass edge closes a cycle gets Object as its superclass, so
	// that every class still ends in Object; visiting Object first (it has no edges)
	// guarantees that it is finished before any class is re-pointed to it.
	// Recursion depth is bounded by the longest supertype chain, which even a hostile
	// class path can only make as long as the number of classes; Go stacks grow.
	var visit func(c *Class)
	visit = func(c *Class) {
		state[c.ID] = grey
		stack = append(stack, c)
		if s := c.Super; s != nil {
			switch state[s.ID] {
			case white:
				visit(s)
			case grey:
				h.cycle(stack, s)
				c.Super = h.object
			}
		}
		for i := 0; i < len(c.Interfaces); {
			in := c.Interfaces[i]
			switch state[in.ID] {
			case white:
				visit(in)
			case grey:
				h.cycle(stack, in)
				c.Interfaces = slices.Delete(c.Interfaces, i, i+1)
				continue
			}
			i++
		}
		stack = stack[:len(stack)-1]
		state[c.ID] = black
		order = append(order, c)
	}
	if h.object != nil {
		visit(h.object)
	}
	for _, c := range h.classes {
		if state[c.ID] == white {
			visit(c)
		}
	}
	return order
}

// maxCycleNames is how many classes a cycle's problem names.
const maxCycleNames = 8

// cycle reports the cycle from to ... stack top -> to and marks its classes.
func (h *Hierarchy) cycle(stack []*Class, to *Class) {
	i := slices.Index(stack, to)
	var b strings.Builder
	cyc := stack[i:]
	for j, c := range cyc {
		c.Cyclic = true
		// A hostile class path can close a cycle of any length: name its first and
		// last classes and count the rest, so that the problem stays one readable line.
		if j < maxCycleNames-1 || j == len(cyc)-1 {
			b.WriteString(c.Name)
			b.WriteString(" -> ")
		} else if j == maxCycleNames-1 {
			fmt.Fprintf(&b, "... (%d more classes) -> ", len(cyc)-maxCycleNames)
		}
	}
	b.WriteString(to.Name)
	last := stack[len(stack)-1]
	what := "superinterface " + to.Name + " is ignored"
	if last.Super == to {
		what = "superclass is taken to be java/lang/Object"
	}
	h.problem(Cycle, last.Name, "supertype cycle %s (the JVM throws ClassCircularityError); the %s of %s", b.String(), what, last.Name)
}

// Bounds that keep hostile class paths from costing quadratic memory. A display of
// more than displayLen ancestors is truncated (deeper ancestors are found by walking
// up), and a class with more than maxIfaces superinterfaces keeps no set (they are
// found by searching). The JDK's deepest class is at depth 9 and its largest
// superinterface set has 31 members, so real code never reaches either.
const (
	displayLen = 32
	maxIfaces  = 1024
)

// layout computes depths, superclass displays, superinterface sets and completeness
// in an order where supertypes come first.
func (h *Hierarchy) layout(order []*Class) {
	total := 0
	for _, c := range order {
		if c.Super != nil {
			c.depth = c.Super.depth + 1
		}
		if c.depth < displayLen {
			total += int(c.depth) + 1
		}
	}
	display := make([]*Class, total)
	var scratch []int32
	for _, c := range order {
		s := c.Super
		if d := int(c.depth) + 1; d <= displayLen {
			c.supers, display = display[:d:d], display[d:]
			if s != nil {
				copy(c.supers, s.supers)
			}
			c.supers[d-1] = c
		} else {
			c.supers = s.supers // the ancestors at depths below displayLen are the same
		}
		c.incomplete = c.Phantom
		c.overridable = slices.ContainsFunc(c.Methods, func(m *Method) bool {
			return m.Access&accPrivStatic == 0 && !strings.HasPrefix(m.Name, "<")
		})
		if s != nil {
			if s.overridable {
				c.up = s
			} else {
				c.up = s.up
			}
		}
		if s != nil {
			c.incomplete = c.incomplete || s.incomplete
			if !c.IsInterface() {
				// An interface's superinterfaces are its own; the Object "superclass"
				// in its class file contributes none.
				c.ifaces, c.manyIfaces = s.ifaces, s.manyIfaces
			}
		}
		if len(c.Interfaces) == 0 {
			continue
		}
		scratch = append(scratch[:0], c.ifaces...)
		for _, in := range c.Interfaces {
			scratch = append(scratch, in.ID)
			scratch = append(scratch, in.ifaces...)
			c.incomplete = c.incomplete || in.incomplete
			c.manyIfaces = c.manyIfaces || in.manyIfaces
		}
		if c.manyIfaces {
			c.ifaces = nil
			continue
		}
		slices.Sort(scratch)
		scratch = slices.Compact(scratch)
		switch {
		case len(scratch) > maxIfaces:
			c.ifaces, c.manyIfaces = nil, true
		case len(scratch) > len(c.ifaces):
			c.ifaces = slices.Clone(scratch)
		}
		// Otherwise nothing is new: keep sharing the superclass's set.
	}
}

// linkSubtypes fills Subtypes from one block.
func (h *Hierarchy) linkSubtypes() {
	count := make([]int32, len(h.classes))
	total := 0
	for _, c := range h.classes {
		if c.Super != nil {
			count[c.Super.ID]++
			total++
		}
		for _, in := range c.Interfaces {
			count[in.ID]++
			total++
		}
	}
	arena := make([]*Class, total)
	for _, c := range h.classes {
		n := int(count[c.ID])
		c.Subtypes, arena = arena[:0:n], arena[n:]
	}
	for _, c := range h.classes {
		if c.Super != nil {
			c.Super.Subtypes = append(c.Super.Subtypes, c)
		}
		for _, in := range c.Interfaces {
			in.Subtypes = append(in.Subtypes, c)
		}
	}
}

// linkNesting derives Outer, Nesting, EnclosingMethod, the source-level nest and the
// JVM nest host.
func (h *Hierarchy) linkNesting() {
	outerName := make([]string, len(h.classes))
	large := make(map[*Class]map[string]bool)
	for _, c := range h.classes {
		f := h.File(c)
		if f == nil {
			continue
		}
		if f.NestHost != "" && f.Major >= 55 {
			// NestHost is a Java 11 (class-file version 55) attribute; older class
			// files reach private members of nest mates through synthetic accessors.
			h.linkNestHost(c, large)
		}
		for i := range f.InnerClasses {
			ic := &f.InnerClasses[i]
			if ic.Inner != c.Name {
				continue
			}
			c.InnerAccess = ic.Access
			switch {
			case ic.Outer != "":
				c.Nesting = Member
				outerName[c.ID] = ic.Outer
			case ic.Name == "":
				c.Nesting = Anonymous
			default:
				c.Nesting = Local
			}
			break
		}
		if em := f.EnclosingMethod; em != nil && c.Nesting != Member {
			// JVMS 4.7.7: exactly the local and anonymous classes have EnclosingMethod.
			if c.Nesting == TopLevel {
				c.Nesting = Local
			}
			outerName[c.ID] = em.Class
		}
		if o := outerName[c.ID]; o != "" {
			if o == c.Name {
				h.problem(BadNesting, c.Name, "%s is declared as nested in itself", c.Name)
				outerName[c.ID] = ""
				continue
			}
			c.Outer = h.byName[o]
			if em := f.EnclosingMethod; em != nil && em.Name != "" && c.Outer != nil && c.Nesting != Member {
				c.EnclosingMethod = c.Outer.Method(em.Name, em.Desc)
			}
		}
	}

	// The source-level nest is named by the top-level class, found by following outer
	// names: its ID when it is known, else an ID for its name, so that siblings inside
	// a missing class stay nest mates.
	missing := make(map[string]int32)
	done := make([]bool, len(h.classes))
	walk := make([]int32, len(h.classes)) // walk number that last visited a class
	var path []*Class
	for _, c := range h.classes {
		if done[c.ID] {
			continue
		}
		path = path[:0]
		mark := c.ID + 1
		x := c
		var nest int32 = -1
		for {
			if done[x.ID] {
				nest = x.nest
				break
			}
			walk[x.ID] = mark
			path = append(path, x)
			o := outerName[x.ID]
			if o == "" {
				nest = x.ID
				break
			}
			y := x.Outer
			if y == nil {
				id, ok := missing[o]
				if !ok {
					id = int32(len(h.classes) + len(missing))
					missing[o] = id
				}
				nest = id
				break
			}
			if walk[y.ID] == mark {
				h.problem(BadNesting, x.Name, "cycle of enclosing classes through %s and %s; %s is taken as top-level", x.Name, y.Name, x.Name)
				x.Outer = nil
				nest = x.ID
				break
			}
			x = y
		}
		for _, p := range path {
			p.nest = nest
			done[p.ID] = true
		}
	}

	count := make([]int32, len(h.classes)+len(missing))
	for _, c := range h.classes {
		if !c.Phantom {
			count[c.nest]++
		}
	}
	arena := make([]*Class, 0, len(h.classes))
	h.nests = make([][]*Class, len(count))
	for i, n := range count {
		h.nests[i], arena = arena[len(arena):len(arena):len(arena)+int(n)], arena[:len(arena)+int(n)]
	}
	for _, c := range h.classes {
		if !c.Phantom {
			h.nests[c.nest] = append(h.nests[c.nest], c)
		}
	}

}

// linkNestHost validates c's NestHost attribute as the JVM does (JVMS 5.4.4, Java 15
// and later): a host that is missing, in another package or not listing c leaves c
// its own nest host.
func (h *Hierarchy) linkNestHost(c *Class, large map[*Class]map[string]bool) {
	f := h.File(c)
	host := h.byName[f.NestHost]
	var why string
	switch {
	case host == nil || host.Phantom:
		why = "is missing"
	case host == c:
		why = "is the class itself"
	case host.pkg != c.pkg:
		why = "is in another package"
	case !lists(h.File(host).NestMembers, c.Name, large, host):
		why = "does not list it in NestMembers"
	default:
		c.NestHost = host
		return
	}
	h.problem(BadNestHost, c.Name, "nest host %s of %s %s; the class is its own nest host", f.NestHost, c.Name, why)
}

// lists reports whether a nest host's NestMembers contain name. Real nests are small
// and scanned; a long list (up to 65535 names, each naming the host) gets a set, so
// that validating all its members is not quadratic.
func lists(members []string, name string, large map[*Class]map[string]bool, host *Class) bool {
	if len(members) <= 64 {
		return slices.Contains(members, name)
	}
	set := large[host]
	if set == nil {
		set = make(map[string]bool, len(members))
		for _, m := range members {
			set[m] = true
		}
		large[host] = set
	}
	return set[name]
}
