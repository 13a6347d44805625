package analysis

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Access overrides. Encap-Respect (level 2) and the levels above it assume that
// reflection obeys Java's access rules. A program that calls setAccessible(true) on a
// Constructor, Method or Field, or gets a Lookup with private access to classes it
// does not own, says in its own bytecode that the assumption does not hold for that
// object: a
// dependency-injection container does so before it calls a package-private @Inject
// constructor. Such a call voids Encap-Respect for the reflective objects it may
// reach: a reflective site whose object an override may have reached falls back to
// every member its API may name (level 1's set for that feature), and a site the
// value analyses resolve keeps the non-public members of the classes they find.
//
// Such Lookups are made by MethodHandles.privateLookupIn, and by reflection on
// Lookup itself, as libraries did before Java 9 (jOOR, Spring, the default-method
// idiom of proxies): Lookup's private constructor called through a Constructor
// that setAccessible opened (a Lookup with private access to the class it is given),
// or its IMPL_LOOKUP field read through a Field (the trusted Lookup: every member of
// every class). Each call of Constructor.newInstance, Method.invoke (a reflective
// privateLookupIn) or Field.get whose result the method casts to Lookup is taken as
// such an override, the Lookup it returns its object. Lookup.in keeps the private
// access of these Lookups (a trusted one's to any class), so a Lookup that in derives
// from one is the same object for the rules below. A Lookup the program gets
// otherwise (through a helper of its own that returns Object, Unsafe, a handle to
// privateLookupIn) is not taken as one.
//
// Whether an override may reach a site's object is told from where the object was
// made: the JDK returns a new Constructor, Method or Field from every getter call
// (Class.getDeclaredConstructor and the others), and privateLookupIn a new Lookup, so
// an object made by one such call is reached only by overrides of objects made by
// the same call. A reflective call that returns a Lookup is an override of its own
// (above), so it too is where its Lookup was made. Where the code defining the
// object is not such a call in the same method (a parameter, a field, a method's
// result), the object may be any, and every override of its kind may have reached it.
//
// Overrides count where they are reachable code of the application or a library,
// and they void sites there: an override of a container whose object is a
// parameter may have reached any object, and would otherwise void every reflective
// site of the JDK (the guice recall workload's graph at levels 2-6 was level 1's,
// every reachable method of the JDK). The JDK's own overrides void the JDK's sites
// that their objects may reach, and only those of their class nest where the
// object never leaves it (resolve_access_jdk.go).
//
// A run does not know its overrides before it reaches them: Run analyses first with
// none, and whenever a pass is about to visit a method with an override it did not
// take as reached, starts again with those reached so far, until a pass completes. A program whose application and libraries name no override API is
// analysed once, as before, and its graph is unchanged.

// objKind is the kind of reflective object an override or a site is about.
type objKind uint8

const (
	objAny objKind = iota // an AccessibleObject of any kind
	objCtor
	objMethod
	objField
	objLookup
)

// meets reports whether an override of objects of kind o may reach an object of
// kind k: Lookups and reflective objects never meet.
func (o objKind) meets(k objKind) bool {
	switch {
	case o == k:
		return true
	case o == objLookup || k == objLookup:
		return false
	}
	return o == objAny || k == objAny
}

// origin is a call that makes a reflective object: a getter of Class (elems: the
// elements of the array it returns), privateLookupIn, lookup, publicLookup, or a
// reflective call whose result is a Lookup.
type origin struct {
	method, pc int32
	elems      bool
}

// override is one call that voids Encap-Respect for the objects it reaches.
type override struct {
	caller  *hierarchy.Method
	pc      int32
	kind    objKind
	origins []origin // where its object was made; nil when unknown
	where   string   // "setAccessible(true) at Foo.java:42", for evidence
	// nest, for an override of the JDK whose object never leaves its class nest,
	// is that nest: it reaches no other sites (resolve_access_jdk.go).
	nest []*hierarchy.Class
	// bounded says that opened, sorted method IDs, holds every non-public member
	// the override may open (the JDK's, resolve_access_jdk.go); otherwise it may
	// open any.
	bounded bool
	opened  []int32
}

// opens reports whether the override o, which may be nil (none), may have opened
// the member m.
func (o *override) opens(m *hierarchy.Method) bool {
	if o == nil {
		return false
	}
	if !o.bounded {
		return true
	}
	_, ok := slices.BinarySearch(o.opened, m.ID)
	return ok
}

// overrideAPIs are the override methods by name and descriptor, with the classes a
// call may name them through.
var overrideAPIs = []struct {
	name, desc, api string
	classes         []string
}{
	{"setAccessible", "(Z)V", "setAccessible(true)", reflectObjects},
	{"trySetAccessible", "()Z", "trySetAccessible()", reflectObjects},
	{"setAccessible", "([Ljava/lang/reflect/AccessibleObject;Z)V", "AccessibleObject.setAccessible(array, true)",
		[]string{"java/lang/reflect/AccessibleObject"}},
	{"privateLookupIn", "(Ljava/lang/Class;Ljava/lang/invoke/MethodHandles$Lookup;)Ljava/lang/invoke/MethodHandles$Lookup;",
		"MethodHandles.privateLookupIn", []string{"java/lang/invoke/MethodHandles"}},
}

var reflectObjects = []string{"java/lang/reflect/AccessibleObject", "java/lang/reflect/Executable",
	"java/lang/reflect/Constructor", "java/lang/reflect/Method", "java/lang/reflect/Field"}

// lookupMakers are the reflective calls that return a Lookup with private access
// when their result is cast to Lookup, with how evidence names them.
var lookupMakers = map[string]string{
	"java/lang/reflect/Constructor.newInstance": "Constructor.newInstance of a Lookup (its private constructor)",
	"java/lang/reflect/Method.invoke":           "Method.invoke returning a Lookup",
	"java/lang/reflect/Field.get":               "Field.get of a Lookup (such as IMPL_LOOKUP, the trusted Lookup)",
}

// lookupMaker returns how evidence names c when it is one of lookupMakers, or "".
func lookupMaker(c *facts.Call) string {
	if c == nil || c.Indy != nil {
		return ""
	}
	return lookupMakers[c.Ref.Class+"."+c.Ref.Name]
}

// kindOfClass is the kind of object a reference of this class holds.
var kindOfClass = map[string]objKind{
	"java/lang/reflect/Constructor": objCtor, "java/lang/reflect/Method": objMethod,
	"java/lang/reflect/Field": objField,
}

// classGetters are the methods of Class that make reflective objects, by name, with
// whether they return an array.
var classGetters = map[string]struct {
	kind  objKind
	array bool
}{
	"getConstructor": {objCtor, false}, "getDeclaredConstructor": {objCtor, false},
	"getEnclosingConstructor": {objCtor, false},
	"getConstructors":         {objCtor, true}, "getDeclaredConstructors": {objCtor, true},
	"getMethod": {objMethod, false}, "getDeclaredMethod": {objMethod, false},
	"getEnclosingMethod": {objMethod, false},
	"getMethods":         {objMethod, true}, "getDeclaredMethods": {objMethod, true},
	"getField": {objField, false}, "getDeclaredField": {objField, false},
	"getFields": {objField, true}, "getDeclaredFields": {objField, true},
}

// accessOverrides holds the override calls of the application and its libraries,
// found once per analyzer.
type accessOverrides struct {
	once sync.Once
	all  []*override

	jdkOnce  sync.Once
	jdkReady atomic.Bool
	jdk      []*override // the JDK's that the analysis models: resolve_access_jdk.go
	// jdkUnmodelled are the JDK's other overrides (resolve_access_jdk.go).
	jdkUnmodelled []*override

	mu     sync.Mutex
	escape map[origin]bool // escapes, by origin
}

// overrideCalls returns every override call in the code of the application and its
// libraries, reachable or not, in method and offset order.
func (a *Analyzer) overrideCalls() []*override {
	a.overrides.once.Do(func() {
		names, makers := map[string]bool{}, map[string]bool{}
		for _, o := range overrideAPIs {
			names[o.name] = true
		}
		for k := range lookupMakers {
			makers[k[strings.IndexByte(k, '.')+1:]] = true
		}
		for _, c := range a.h.Classes() {
			if c.Origin == hierarchy.JDK {
				continue
			}
			apis := a.namesAny(c, names)
			lookups := a.namesAny(c, makers) && a.namesClass(c, lookupClass)
			if !apis && !lookups {
				continue
			}
			for _, m := range c.Methods {
				if apis {
					a.overrides.all = append(a.overrides.all, a.overridesIn(m)...)
				}
				if lookups {
					a.overrides.all = append(a.overrides.all, a.lookupsMadeIn(m)...)
				}
			}
		}
	})
	return a.overrides.all
}

// namesAny reports whether c's constant pool names a method of one of the names.
func (a *Analyzer) namesAny(c *hierarchy.Class, names map[string]bool) bool {
	f := a.h.File(c)
	if f == nil {
		return false
	}
	for name := range f.Pool.MethodRefs() {
		if names[string(name)] {
			return true
		}
	}
	return false
}

// namesClass reports whether c's constant pool names the class (a checkcast to it
// does).
func (a *Analyzer) namesClass(c *hierarchy.Class, name string) bool {
	f := a.h.File(c)
	if f == nil {
		return false
	}
	for i := 1; i < f.Pool.Len(); i++ {
		if f.Pool.Tag(uint16(i)) == classfile.TagClass && f.Pool.ClassName(uint16(i)) == name {
			return true
		}
	}
	return false
}

// lookupsMadeIn returns the overrides of m that are reflective calls whose result m
// casts to Lookup (lookupMakers), in offset order.
func (a *Analyzer) lookupsMadeIn(m *hierarchy.Method) []*override {
	f := a.prog.Facts(m)
	if f == nil || !slices.ContainsFunc(f.TypeChecks, isLookupCast) {
		return nil
	}
	fl, err := a.prog.Flow(m)
	if err != nil || fl == nil {
		return nil
	}
	lf := &localFlow{h: a.h, m: m, f: f, fl: fl}
	var pcs []int32
	for i := range f.TypeChecks {
		if isLookupCast(f.TypeChecks[i]) {
			if ops := lf.operands(f.TypeChecks[i].PC); len(ops) > 0 {
				pcs = lf.lookupMakersOf(ops[0], pcs, 0)
			}
		}
	}
	slices.Sort(pcs)
	var out []*override
	for _, pc := range slices.Compact(pcs) {
		c := lf.callAt(int(pc))
		out = append(out, &override{caller: m, pc: pc, kind: objLookup, origins: []origin{{method: m.ID, pc: pc}},
			where: lookupMaker(c) + " at " + lf.place(c.Line)})
	}
	return out
}

func isLookupCast(t facts.TypeCheck) bool { return !t.Instanceof && t.Type == lookupClass }

// lookupMakersOf adds to pcs the lookupMakers calls among the definitions of a
// value, through casts.
func (lf *localFlow) lookupMakersOf(defs []facts.Def, pcs []int32, depth int) []int32 {
	for _, d := range defs {
		if d.Kind != facts.DefInstr || depth > 8 {
			continue
		}
		if chk := lf.checkAt(d.N); chk != nil && !chk.Instanceof {
			if ops := lf.operands(int32(d.N)); len(ops) > 0 {
				pcs = lf.lookupMakersOf(ops[0], pcs, depth+1)
			}
			continue
		}
		if c := lf.callAt(d.N); lookupMaker(c) != "" {
			pcs = append(pcs, c.PC)
		}
	}
	return pcs
}

// overridesIn returns the override calls of m.
func (a *Analyzer) overridesIn(m *hierarchy.Method) []*override {
	f := a.prog.Facts(m)
	if f == nil {
		return nil
	}
	var lf *localFlow
	var out []*override
	for i := range f.Calls {
		c := &f.Calls[i]
		if c.Indy != nil {
			continue
		}
		for _, api := range overrideAPIs {
			if c.Ref.Name != api.name || c.Ref.Desc != api.desc || !slices.Contains(api.classes, c.Ref.Class) {
				continue
			}
			if lf == nil {
				fl, err := a.prog.Flow(m)
				if err != nil || fl == nil {
					return out
				}
				lf = &localFlow{h: a.h, m: m, f: f, fl: fl}
			}
			if o := lf.override(c, api.api); o != nil {
				out = append(out, o)
			}
		}
	}
	return out
}

// override describes the override call c of lf's method, or nil when it cannot
// override (setAccessible(false)).
func (lf *localFlow) override(c *facts.Call, api string) *override {
	ops := lf.operands(c.PC)
	o := &override{caller: lf.m, pc: c.PC, where: api + " at " + lf.place(c.Line)}
	switch c.Ref.Name {
	case "privateLookupIn":
		// The Lookup it returns is the object with private access.
		o.kind, o.origins = objLookup, []origin{{method: lf.m.ID, pc: c.PC}}
		return o
	case "trySetAccessible":
		o.kind = kindOfClass[c.Ref.Class]
		if len(ops) > 0 {
			o.origins = lf.origins(ops[0], 0, false)
		}
	default:
		if len(ops) < 2 || lf.allIconst0(ops[len(ops)-1]) {
			return nil // setAccessible(false) takes access away
		}
		if c.Op == bytecode.Invokestatic {
			// The array's elements are the objects: known when the array is a
			// getter's result.
			o.origins = lf.origins(ops[0], 0, false)
			if !allElems(o.origins) {
				o.origins = nil
			}
		} else {
			o.kind = kindOfClass[c.Ref.Class]
			o.origins = lf.origins(ops[0], 0, false)
		}
	}
	if k, ok := lf.originKind(o.origins); ok {
		o.kind = k
	}
	return o
}

func allElems(os []origin) bool {
	for _, x := range os {
		if !x.elems {
			return false
		}
	}
	return len(os) > 0
}

// place renders where an instruction of lf's method is, for evidence:
// "Foo.java:42 (com.x.Foo.make)".
func (lf *localFlow) place(line int32) string {
	file := ""
	if f := lf.h.File(lf.m.Class); f != nil {
		file = f.SourceFile
	}
	if file == "" {
		file = lf.m.Class.Name
		if i := strings.LastIndexByte(file, '/'); i >= 0 {
			file = file[i+1:]
		}
		file += ".class"
	}
	if line >= 0 {
		file += ":" + strconv.Itoa(int(line))
	}
	return file + " (" + strings.ReplaceAll(lf.m.Class.Name, "/", ".") + "." + lf.m.Name + ")"
}

// origins returns the calls that made a reflective value with these definitions
// (for an array's element: the calls that made the array, elems set), or nil when
// some definition is not such a call in the method. A Lookup's (lookups set) may
// also be the reflective calls that are overrides of their own (lookupMakers), and
// Lookup.in's receiver's.
func (lf *localFlow) origins(defs []facts.Def, depth int, lookups bool) []origin {
	if depth > 8 || len(defs) == 0 {
		return nil
	}
	code, err := lf.h.Info(lf.m).Code()
	if err != nil || code == nil {
		return nil
	}
	var out []origin
	for _, d := range defs {
		if d.Kind != facts.DefInstr || d.N < 0 || d.N >= len(code.Bytecode) {
			return nil
		}
		switch op := bytecode.Opcode(code.Bytecode[d.N]); op {
		case bytecode.Checkcast:
			sub := lf.receiverOrigins(d.N, depth, lookups)
			if sub == nil {
				return nil
			}
			out = append(out, sub...)
		case bytecode.Aaload:
			// An element of an array a getter returned.
			ops := lf.operands(int32(d.N))
			if len(ops) == 0 {
				return nil
			}
			sub := lf.origins(ops[0], depth+1, lookups)
			if !allElems(sub) {
				return nil
			}
			out = append(out, sub...)
		default:
			c := lf.callAt(d.N)
			if c == nil {
				return nil
			}
			switch {
			case c.Ref.Class == "java/lang/Class" && classGetters[c.Ref.Name].kind != objAny:
				out = append(out, origin{method: lf.m.ID, pc: c.PC, elems: classGetters[c.Ref.Name].array})
			case c.Ref.Class == "java/lang/invoke/MethodHandles" && (c.Ref.Name == "privateLookupIn" || c.Ref.Name == "lookup" || c.Ref.Name == "publicLookup"),
				lookups && c.Indy == nil && lookupMaker(c) != "":
				out = append(out, origin{method: lf.m.ID, pc: c.PC})
			case lookups && lf.lookupIn(d.N):
				sub := lf.receiverOrigins(d.N, depth, lookups)
				if sub == nil {
					return nil
				}
				out = append(out, sub...)
			default:
				return nil
			}
		}
	}
	slices.SortFunc(out, func(a, b origin) int { return int(a.pc - b.pc) })
	return slices.Compact(out)
}

// receiverOrigins returns the origins of the first operand of the instruction at pc
// (a cast's value, Lookup.in's receiver), or nil.
func (lf *localFlow) receiverOrigins(pc, depth int, lookups bool) []origin {
	ops := lf.operands(int32(pc))
	if len(ops) == 0 {
		return nil
	}
	return lf.origins(ops[0], depth+1, lookups)
}

// originKind returns the one kind of object the origins make, if they make one.
func (lf *localFlow) originKind(os []origin) (objKind, bool) {
	kind, ok := objAny, false
	for _, x := range os {
		c := lf.callAt(int(x.pc))
		if c == nil || c.Ref.Class != "java/lang/Class" {
			return objAny, false
		}
		k := classGetters[c.Ref.Name].kind
		if ok && k != kind {
			return objAny, false
		}
		kind, ok = k, true
	}
	return kind, ok
}

// escapes reports whether an object an origin makes may leave its method other than
// to the reflective APIs' own methods: stored, returned, thrown or passed to other
// code. An object that does not is reached only by overrides and sites in its
// method, which name its origin. Computed once per analyzer.
func (a *Analyzer) escapes(x origin) bool {
	a.overrides.mu.Lock()
	e, ok := a.overrides.escape[x]
	a.overrides.mu.Unlock()
	if ok {
		return e
	}
	e = a.findEscape(x)
	a.overrides.mu.Lock()
	if a.overrides.escape == nil {
		a.overrides.escape = map[origin]bool{}
	}
	a.overrides.escape[x] = e
	a.overrides.mu.Unlock()
	return e
}

func (a *Analyzer) findEscape(x origin) bool {
	m := a.h.Methods()[x.method]
	f := a.prog.Facts(m)
	fl, err := a.prog.Flow(m)
	if f == nil || err != nil || fl == nil {
		return true
	}
	lf := &localFlow{h: a.h, m: m, f: f, fl: fl}
	// The values derived from the object (casts of it; for an array, its elements
	// and their casts), found until no more are.
	derived := map[int]bool{int(x.pc): true}
	from := func(defs []facts.Def) bool {
		for _, d := range defs {
			if d.Kind == facts.DefInstr && derived[d.N] {
				return true
			}
		}
		return false
	}
	for grew := true; grew; {
		grew = false
		fl.EachInstr(func(pc int, op bytecode.Opcode, operand func(int) []facts.Def) {
			if (op == bytecode.Checkcast || op == bytecode.Aaload || lf.lookupIn(pc)) && !derived[pc] && from(operand(0)) {
				derived[pc], grew = true, true
			}
		})
	}
	escaped := false
	fl.EachInstr(func(pc int, op bytecode.Opcode, operand func(int) []facts.Def) {
		if escaped {
			return
		}
		// A local or a copy on the stack holds the value under the definition that
		// made it (moves): its uses are seen where they are.
		switch {
		case moves(op):
			return
		case op == bytecode.Checkcast, op == bytecode.Aaload, op == bytecode.Arraylength, op == bytecode.Ifnull, op == bytecode.Ifnonnull,
			op == bytecode.IfAcmpeq, op == bytecode.IfAcmpne, op == bytecode.Instanceof:
			return
		}
		c := lf.callAt(pc)
		for n := 0; ; n++ {
			defs := operand(n)
			if defs == nil {
				return
			}
			if !from(defs) {
				continue
			}
			// The reflective classes' own methods keep no reference to the object
			// they are called on (setAccessible, newInstance, invoke, getName...),
			// nor does the static setAccessible to its array.
			if c != nil && c.Indy == nil && (n == 0 && reflectOwner(c.Ref.Class) ||
				c.Ref.Class == "java/lang/reflect/AccessibleObject" && c.Ref.Name == "setAccessible") {
				continue
			}
			escaped = true
			return
		}
	})
	return escaped
}

// lookupIn reports whether the instruction at pc calls Lookup.in, whose result has
// the private access of its receiver.
func (lf *localFlow) lookupIn(pc int) bool {
	c := lf.callAt(pc)
	return c != nil && c.Indy == nil && c.Ref.Class == lookupClass && c.Ref.Name == "in"
}

// reflectOwner reports whether a class's methods are those of reflective objects.
func reflectOwner(class string) bool {
	return slices.Contains(reflectObjects, class) || class == "java/lang/invoke/MethodHandles$Lookup"
}

// accessRun is a run's view of the overrides: those its previous pass reached, and
// the methods holding others, at whose visit the pass stops.
type accessRun struct {
	active []*override
	others map[int32]bool // by method ID
}

// errNewOverride stops a pass that reaches an override it did not take as reached.
var errNewOverride = errors.New("analysis: a new access override is reachable")

func newAccessRun(all, active []*override) accessRun {
	r := accessRun{active: active, others: map[int32]bool{}}
	for _, o := range all {
		if !slices.Contains(active, o) {
			r.others[o.caller.ID] = true
		}
	}
	return r
}

// restart reports whether visiting method id would reach an override the pass did
// not take as reached.
func (r *accessRun) restart(id int32) bool {
	return r.others[id]
}

// overrideAt returns the first override of the run that may have reached the
// reflective object of kind k in operand operand of the call at pc in m, or nil: at
// a site of the application or a library, one of theirs that the run reached; at a
// site of the JDK, one of the JDK's.
func (s *solver) overrideAt(m *hierarchy.Method, pc int32, operand int, k objKind) *override {
	if m == nil || !s.opts.Level.RespectsEncapsulation() {
		return nil
	}
	active := s.access.active
	if m.Class.Origin == hierarchy.JDK {
		active = s.a.jdkOverrides()
	}
	if len(active) == 0 {
		return nil
	}
	var mine []origin
	if lf := s.localFlow(m); lf != nil {
		if ops := lf.operands(pc); operand < len(ops) {
			mine = lf.origins(ops[operand], 0, k == objLookup)
		}
	}
	for _, o := range active {
		if !o.kind.meets(k) || !o.reaches(m.Class) {
			continue
		}
		switch {
		case mine == nil && o.origins == nil:
			return o
		case mine == nil:
			if slices.ContainsFunc(o.origins, s.a.escapes) {
				return o
			}
		case o.origins == nil:
			if slices.ContainsFunc(mine, s.a.escapes) {
				return o
			}
		case slices.ContainsFunc(o.origins, func(x origin) bool { return slices.Contains(mine, x) }):
			return o
		}
	}
	return nil
}

// voided is the evidence an override adds to a site's.
func voided(o *override, what string) string {
	return o.where + " may have reached this " + what + ": Encap-Respect does not hold for it"
}

// voidedMembers is the evidence an override adds to a resolved site's, whose
// non-public members it keeps: all of them, or those a bounded override opened.
func voidedMembers(o *override, what string) string {
	if o.bounded {
		return voided(o, what) + ": the non-public " + what + "s it opens too"
	}
	return voided(o, what) + ": its non-public " + what + "s too"
}

// reachedOverrides returns the overrides of the application and libraries that the
// solver has reached.
func (s *solver) reachedOverrides() []*override {
	var reached []*override
	for _, o := range s.a.overrideCalls() {
		if s.reach.Has(o.caller.ID) {
			reached = append(reached, o)
		}
	}
	return reached
}
