package analysis

import (
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// The JDK's own access overrides. The JDK calls setAccessible(true) on reflective
// objects of its own (70 calls in JDK 17), and its reflective sites then call what
// Encap-Respect rules out: DatagramChannelImpl's forEach invokes the
// package-private AbstractSelectableChannel.forEach through a Method that a
// doPrivileged lambda opened, MethodUtil.invoke the private Trampoline.invoke. So
// the JDK's overrides void Encap-Respect at the JDK's sites their objects may reach,
// as the application's do at the application's (overrideAt), at every level from
// Encap-Respect on, and open there the members they may open, the same at every
// level, so that the levels stay nested.
//
// An override is modelled when its object never leaves its class nest and the
// members it may open are known. nestFlow follows the object through the nest's
// code: back to where it was made (a Class getter or one of ReflectionFactory's
// copies, which return new objects) and on to where it goes (a lambda's or an
// anonymous class's capture, a private field, a private method's parameters and
// result, a doPrivileged call's result); the override then reaches only the sites
// of its nest (override.nest). The members are what the value analyses find the
// object is, at Correct-String whatever the run's level (openedBy: a Method's
// names, or the classes the getters are called on); it opens the non-public ones
// (override.opened). On JDK 17, 8 are modelled; those of ObjectStreamClass and
// ReflectionFactory open what the serialization models give their sites at every
// level (resolve_serial.go, resolve_jdkserialproxy.go); others open public members
// only, which Encap-Respect's sets hold.
//
// The rest are not modelled (jdkUnmodelled: 41 on JDK 17, 25 of them on Fields,
// which change no call edge): their objects leave their nests (helpers that open
// what any caller hands them, as jdk.jfr's SecuritySupport and sun.nio.ch.Reflect
// do; the Serviceability Agent's field setters) or the analyses cannot bound what
// they open (InnerClassLambdaMetafactory's spun classes, the Serviceability Agent's
// ObjectReader, which instantiates any class). Their sites keep Encap-Respect, a
// known limit: taking every one of them to reach every site of the JDK whose object
// is not made there gives those sites level 1's sets (on javacc at Correct-JDK,
// 210,420 reachable methods and 14.5 M edges against 206,416 and 12.1 M), and
// taking those confined to their nests with any member makes Encap-Respect reach
// what Behaved-CLs does (210,420 against 206,855).

// jdkOverrides returns the override calls of reflective objects in the JDK's code
// (Lookups are left to the method-handle models), reachable or not: they are taken
// as reached from the start, since they depend on the JDK alone. Computed once per
// analyzer.
func (a *Analyzer) jdkOverrides() []*override {
	a.overrides.jdkOnce.Do(func() {
		// What the JDK's own code names is known from its constants: the members
		// an override opens are found at Correct-String whatever the run's level,
		// so that every level opens the same.
		va := values.New(a.prog, a.valuesIndex(), callgraph.CorrectString, values.Environment{})
		names := map[string]bool{}
		for _, o := range overrideAPIs {
			names[o.name] = true
		}
		for _, c := range a.h.Classes() {
			if c.Origin != hierarchy.JDK || !a.namesAny(c, names) {
				continue
			}
			if a.serialModelled(c) {
				continue
			}
			for _, m := range c.Methods {
				for _, o := range a.overridesIn(m) {
					if o.kind == objLookup {
						continue
					}
					nf := a.newNestFlow(m.Class)
					if nf.publicOrigins(o) {
						continue // it opens public members only
					}
					if !nf.confined(m, o.pc) {
						a.overrides.jdkUnmodelled = append(a.overrides.jdkUnmodelled, o)
						continue
					}
					if len(nf.getters) == 0 && !nf.copied {
						continue // it opens public members only
					}
					if o.opened, o.bounded = a.openedBy(va, o, nf); !o.bounded {
						a.overrides.jdkUnmodelled = append(a.overrides.jdkUnmodelled, o)
						continue
					}
					if len(o.opened) == 0 {
						continue // every member it may open is public
					}
					o.nest = nf.nest
					a.overrides.jdk = append(a.overrides.jdk, o)
				}
			}
		}
		a.overrides.jdkReady.Store(true)
	})
	return a.overrides.jdk
}

// inheritJDKOverrides gives a, whose hierarchy shares prev's classes and methods,
// prev's JDK overrides if it found them (about 80 ms on the JDK 17 image).
func (a *Analyzer) inheritJDKOverrides(prev *Analyzer) {
	if !prev.overrides.jdkReady.Load() {
		return
	}
	a.overrides.jdkOnce.Do(func() {
		a.overrides.jdk, a.overrides.jdkUnmodelled = prev.overrides.jdk, prev.overrides.jdkUnmodelled
		a.overrides.jdkReady.Store(true)
	})
}

// openedBy returns the non-public members that the JDK's override o may open,
// sorted by ID, and whether they are known: those of the Method the value analyses
// find it is (their names, when the classes are not known), else those the getters
// nf met may return, of the classes the analyses find their receivers are.
func (a *Analyzer) openedBy(va *values.Analyzer, o *override, nf *nestFlow) ([]int32, bool) {
	var ids []int32
	add := func(m *hierarchy.Method) {
		if !m.IsPublic() && !m.IsClassInitializer() {
			ids = append(ids, m.ID)
		}
	}
	switch {
	case nf.copied:
		return nil, false
	case o.kind == objMethod || o.kind == objAny:
		if shapes, _, ok := va.Invocation(o.caller, o.pc); ok {
			for _, sh := range shapes {
				if !sh.Classes.Complete {
					for _, m := range a.namedMethods(o.caller.Class, sh, &override{}) {
						add(m)
					}
					continue
				}
				for _, c := range sh.Classes.Set {
					eachInvocable(a.h, c, sh.Names, sh.Params, add)
				}
			}
			break
		}
		fallthrough
	case o.kind == objCtor:
		for _, g := range nf.getters {
			cls := va.ClassOperand(g.m, int32(g.def.N), 0)
			if !cls.Complete {
				return nil, false
			}
			lf := nf.flow(g.m)
			c := lf.callAt(g.def.N)
			var names []string
			if ops := lf.operands(int32(g.def.N)); classGetters[c.Ref.Name].kind == objMethod && len(ops) > 1 {
				names, _ = lf.constStrings(ops[1])
			}
			for _, cl := range cls.Set {
				for _, m := range cl.Methods {
					if m.IsConstructor() == (classGetters[c.Ref.Name].kind == objCtor) && (names == nil || slices.Contains(names, m.Name)) {
						add(m)
					}
				}
			}
		}
	default:
		return nil, false
	}
	slices.Sort(ids)
	return slices.Compact(ids), true
}

// serialModelled reports whether c is of a nest whose overrides open what the
// serialization models give their sites at every level: the readObject,
// writeObject, readResolve and writeReplace methods of serializable classes, the
// constructors deserialization runs, records' canonical constructors
// (resolve_serial.go, resolve_jdkserialproxy.go).
func (a *Analyzer) serialModelled(c *hierarchy.Class) bool {
	for _, host := range []string{"java/io/ObjectStreamClass", "jdk/internal/reflect/ReflectionFactory"} {
		if h := a.h.Class(host); h != nil && a.h.SameNest(c, h) {
			return true
		}
	}
	return false
}

// reaches reports whether override o may reach a site in class c: an override
// confined to its nest reaches only that nest's sites.
func (o *override) reaches(c *hierarchy.Class) bool {
	return o.nest == nil || slices.Contains(o.nest, c)
}

// nestFlow follows reflective objects through the code of one class nest. A value
// is a definition in a method of the nest; the values linked to it (the stores and
// loads of a field only the nest accesses, the arguments and parameters of a method
// only the nest calls, returns and call results) are followed in turn, and every
// one must be made in the nest or come from a new object, and be used only by the
// reflective APIs or passed on within the nest.
type nestFlow struct {
	a    *Analyzer
	nest []*hierarchy.Class
	seen map[nestSlot]bool
	work []nestSlot
	lfs  map[*hierarchy.Method]*localFlow
	// getters are the calls of Class's getters of members that need not be public
	// (getDeclared*, getEnclosing*) whose objects the flow met; copied, whether it
	// met one of ReflectionFactory's copies.
	getters []nestSlot
	copied  bool
}

// publicOrigins reports whether the object of override o is made in its method
// by getters of public members only (getMethod, getConstructors, ...).
func (nf *nestFlow) publicOrigins(o *override) bool {
	lf := nf.flow(o.caller)
	if lf == nil || o.origins == nil {
		return false
	}
	for _, x := range o.origins {
		c := lf.callAt(int(x.pc))
		if x.method != o.caller.ID || c == nil || c.Ref.Class != "java/lang/Class" || declaredGetter(c.Ref.Name) {
			return false
		}
	}
	return true
}

// declaredGetter reports whether the Class getter of that name may return members
// that are not public.
func declaredGetter(name string) bool {
	return strings.Contains(name, "Declared") || strings.HasPrefix(name, "getEnclosing")
}

// nestSlot is a place nestFlow follows: a value (m, def), the field f, parameter n
// of m, or what m returns.
type nestSlot struct {
	kind slotKind
	m    *hierarchy.Method
	f    *hierarchy.Field
	def  facts.Def
}

type slotKind uint8

const (
	slotValue slotKind = iota
	slotField
	slotParam // def.N is the parameter
	slotReturn
)

// maxNestSlots bounds the places one proof follows; past it the object is taken
// to leave the nest.
const maxNestSlots = 4096

func (a *Analyzer) newNestFlow(c *hierarchy.Class) *nestFlow {
	return &nestFlow{a: a, nest: a.h.NestClasses(c), seen: map[nestSlot]bool{}, lfs: map[*hierarchy.Method]*localFlow{}}
}

// freshCopies are the JDK's methods, beyond Class's getters, that return a new
// reflective object: the copies Class hands out of its cached ones.
var freshCopies = map[string]bool{
	"jdk/internal/reflect/ReflectionFactory.copyConstructor": true,
	"jdk/internal/reflect/ReflectionFactory.copyMethod":      true,
	"jdk/internal/reflect/ReflectionFactory.copyField":       true,
}

// readsOnly are the JDK's methods that read a reflective object they are given and
// keep no reference to it: a method handle of it is another object, a string of it
// a string.
var readsOnly = map[string]bool{
	"java/lang/invoke/MethodHandles$Lookup.unreflect":            true,
	"java/lang/invoke/MethodHandles$Lookup.unreflectConstructor": true,
	"java/lang/invoke/MethodHandles$Lookup.unreflectGetter":      true,
	"java/lang/invoke/MethodHandles$Lookup.unreflectSetter":      true,
	"java/lang/invoke/MethodHandles$Lookup.unreflectSpecial":     true,
	"java/lang/invoke/MethodHandles$Lookup.unreflectVarHandle":   true,
	"jdk/internal/reflect/ReflectionFactory.newInstance":         true,
	"java/lang/String.valueOf":                                   true,
	"java/lang/StringBuilder.append":                             true,
}

// confined reports whether the object that operand 0 of the call at pc in m (an
// override) may be stays in nf's nest.
func (nf *nestFlow) confined(m *hierarchy.Method, pc int32) bool {
	lf := nf.flow(m)
	if lf == nil || !slices.Contains(nf.nest, m.Class) {
		return false
	}
	ops := lf.operands(pc)
	if len(ops) == 0 || len(ops[0]) == 0 {
		return false
	}
	for _, d := range ops[0] {
		nf.add(nestSlot{kind: slotValue, m: m, def: d})
	}
	for len(nf.work) > 0 {
		if len(nf.seen) > maxNestSlots {
			return false
		}
		s := nf.work[len(nf.work)-1]
		nf.work = nf.work[:len(nf.work)-1]
		var ok bool
		switch s.kind {
		case slotValue:
			ok = nf.value(s.m, s.def)
		case slotField:
			ok = nf.field(s.f)
		case slotParam:
			ok = nf.param(s.m, s.def.N)
		case slotReturn:
			ok = nf.returns(s.m)
		}
		if !ok {
			return false
		}
	}
	return true
}

func (nf *nestFlow) add(s nestSlot) {
	if !nf.seen[s] {
		nf.seen[s] = true
		nf.work = append(nf.work, s)
	}
}

func (nf *nestFlow) flow(m *hierarchy.Method) *localFlow {
	if lf, ok := nf.lfs[m]; ok {
		return lf
	}
	var lf *localFlow
	if f := nf.a.prog.Facts(m); f != nil {
		if fl, err := nf.a.prog.Flow(m); err == nil && fl != nil {
			lf = &localFlow{h: nf.a.h, m: m, f: f, fl: fl}
		}
	}
	nf.lfs[m] = lf
	return lf
}

func (nf *nestFlow) opAt(lf *localFlow, pc int) (bytecode.Opcode, bool) {
	code, err := nf.a.h.Info(lf.m).Code()
	if err != nil || code == nil || pc < 0 || pc >= len(code.Bytecode) {
		return 0, false
	}
	return bytecode.Opcode(code.Bytecode[pc]), true
}

// value follows the value def of m: where it comes from and where it goes.
func (nf *nestFlow) value(m *hierarchy.Method, def facts.Def) bool {
	lf := nf.flow(m)
	if lf == nil {
		return false
	}
	if !nf.source(lf, def) {
		return false
	}
	return lf.eachUse(def, func(pc int, op bytecode.Opcode, c *facts.Call, n int, _ func(int) []facts.Def) bool {
		return nf.use(lf, pc, op, c, n)
	})
}

// source reports whether def may be an object made in the nest or a new one, and
// adds the places it comes through.
func (nf *nestFlow) source(lf *localFlow, def facts.Def) bool {
	switch def.Kind {
	case facts.DefParam:
		nf.add(nestSlot{kind: slotParam, m: lf.m, def: facts.Def{N: def.N}})
		return true
	case facts.DefInstr:
	default:
		return false
	}
	op, ok := nf.opAt(lf, def.N)
	if !ok {
		return false
	}
	switch op {
	case bytecode.AconstNull:
		return true
	case bytecode.Checkcast:
		return nf.operandValues(lf, def.N, 0)
	case bytecode.Aaload:
		// An element of an array: the array is followed (a getter's array holds
		// new objects).
		return nf.operandValues(lf, def.N, 0)
	case bytecode.Getfield, bytecode.Getstatic:
		f := nf.nestField(lf, def.N)
		if f == nil {
			return false
		}
		nf.add(nestSlot{kind: slotField, f: f})
		return true
	}
	c := lf.callAt(def.N)
	switch {
	case c == nil || c.Indy != nil:
		return false
	case c.Ref.Class == "java/lang/Class" && classGetters[c.Ref.Name].kind != objAny:
		if declaredGetter(c.Ref.Name) {
			nf.getters = append(nf.getters, nestSlot{m: lf.m, def: def})
		}
		return true
	case freshCopies[c.Ref.Class+"."+c.Ref.Name]:
		nf.copied = true
		return true
	}
	if callee := nf.nestCallee(c); callee != nil && closedMethod(callee) {
		nf.add(nestSlot{kind: slotReturn, m: callee})
		return true
	}
	if callee := nf.selfCallee(lf, c); callee != nil {
		// A bridge calling the method it bridges: what that returns.
		nf.add(nestSlot{kind: slotReturn, m: callee})
		return true
	}
	if run := nf.privilegedRun(lf, c); run != nil {
		nf.add(nestSlot{kind: slotReturn, m: run})
		return true
	}
	return false
}

// operandValues adds the definitions of operand n of the instruction at pc.
func (nf *nestFlow) operandValues(lf *localFlow, pc, n int) bool {
	ops := lf.operands(int32(pc))
	if n >= len(ops) || len(ops[n]) == 0 {
		return false
	}
	for _, d := range ops[n] {
		nf.add(nestSlot{kind: slotValue, m: lf.m, def: d})
	}
	return true
}

// use reports whether the instruction at pc may use a followed value as its
// operand n without the value leaving the nest, and adds where it goes.
func (nf *nestFlow) use(lf *localFlow, pc int, op bytecode.Opcode, c *facts.Call, n int) bool {
	here := facts.Def{Kind: facts.DefInstr, N: pc}
	switch op {
	case bytecode.Arraylength, bytecode.Ifnull, bytecode.Ifnonnull, bytecode.IfAcmpeq, bytecode.IfAcmpne,
		bytecode.Instanceof, bytecode.Monitorenter, bytecode.Monitorexit:
		return true
	case bytecode.Checkcast:
		nf.add(nestSlot{kind: slotValue, m: lf.m, def: here})
		return true
	case bytecode.Aaload:
		// The array's element.
		nf.add(nestSlot{kind: slotValue, m: lf.m, def: here})
		return n == 0
	case bytecode.Putfield, bytecode.Putstatic:
		f := nf.nestField(lf, pc)
		if f == nil || op == bytecode.Putfield && n != 1 {
			return false
		}
		nf.add(nestSlot{kind: slotField, f: f})
		return true
	case bytecode.Areturn:
		if !nf.returnsInNest(lf.m) {
			return false
		}
		nf.add(nestSlot{kind: slotReturn, m: lf.m})
		return true
	}
	if c == nil {
		return false
	}
	if c.Indy != nil {
		// A lambda of the nest captures it: the implementation's parameter.
		impl := nf.lambdaImpl(c)
		if impl == nil || n >= nf.a.capturedParams(impl) {
			return false
		}
		nf.add(nestSlot{kind: slotParam, m: impl, def: facts.Def{N: n}})
		return true
	}
	// The reflective classes' own methods keep no reference to the object they are
	// called on, nor does the static setAccessible to its array, nor do the JDK's
	// methods that read it.
	if n == 0 && reflectOwner(c.Ref.Class) || c.Ref.Class == "java/lang/reflect/AccessibleObject" && c.Ref.Name == "setAccessible" ||
		readsOnly[c.Ref.Class+"."+c.Ref.Name] {
		return true
	}
	callee := nf.nestCallee(c)
	if callee == nil || !closedMethod(callee) {
		return false
	}
	nf.add(nestSlot{kind: slotParam, m: callee, def: facts.Def{N: n}})
	return true
}

// field follows a field only the nest accesses: every value stored in it and
// every read of it.
func (nf *nestFlow) field(f *hierarchy.Field) bool {
	for _, c := range nf.nest {
		for _, m := range c.Methods {
			mf := nf.a.prog.Facts(m)
			if mf == nil || !slices.ContainsFunc(mf.Fields, func(x facts.FieldAccess) bool { return x.Ref.Name == f.Name }) {
				continue
			}
			lf := nf.flow(m)
			if lf == nil {
				return false
			}
			for _, x := range mf.Fields {
				if x.Ref.Name != f.Name || nf.nestField(lf, int(x.PC)) != f {
					continue
				}
				if !x.Write {
					nf.add(nestSlot{kind: slotValue, m: m, def: facts.Def{Kind: facts.DefInstr, N: int(x.PC)}})
					continue
				}
				n := 1
				if x.Static {
					n = 0
				}
				if !nf.operandValues(lf, int(x.PC), n) {
					return false
				}
			}
		}
	}
	return true
}

// param follows parameter n of m, a method only the nest calls: the value on
// entry, and the arguments of its calls and of the lambdas that capture it.
func (nf *nestFlow) param(m *hierarchy.Method, n int) bool {
	if !closedMethod(m) && n >= nf.a.capturedParams(m) {
		return false
	}
	nf.add(nestSlot{kind: slotValue, m: m, def: facts.Def{Kind: facts.DefParam, N: n}})
	return nf.eachCall(m, func(lf *localFlow, c *facts.Call) bool {
		return nf.operandValues(lf, int(c.PC), n)
	})
}

// returns follows what m returns: the values it returns, and its calls' results
// (a privileged action's: the results of the doPrivileged calls that run it).
func (nf *nestFlow) returns(m *hierarchy.Method) bool {
	lf := nf.flow(m)
	if lf == nil {
		return false
	}
	ok := true
	lf.fl.EachInstr(func(pc int, op bytecode.Opcode, _ func(int) []facts.Def) {
		if ok && op == bytecode.Areturn {
			ok = nf.operandValues(lf, pc, 0)
		}
	})
	if !ok {
		return false
	}
	if closedMethod(m) {
		return nf.eachCall(m, func(lf *localFlow, c *facts.Call) bool {
			if c.Indy == nil {
				nf.add(nestSlot{kind: slotValue, m: lf.m, def: facts.Def{Kind: facts.DefInstr, N: int(c.PC)}})
			}
			return true
		})
	}
	runs, ok := nf.privilegedCalls(m)
	for _, r := range runs {
		nf.add(nestSlot{kind: slotValue, m: r.lf.m, def: facts.Def{Kind: facts.DefInstr, N: int(r.pc)}})
	}
	return ok
}

// returnsInNest reports whether what m returns stays in the nest: m is called by
// the nest alone, or is a privileged action's body that the nest alone runs.
func (nf *nestFlow) returnsInNest(m *hierarchy.Method) bool {
	if closedMethod(m) {
		return true
	}
	_, ok := nf.privilegedCalls(m)
	return ok
}

// closedMethod reports whether only m's class nest calls m: a private method, or a
// constructor or static method of an anonymous, local or private member class
// (javac names them nowhere else).
func closedMethod(m *hierarchy.Method) bool {
	c := m.Class
	hidden := c.Nesting == hierarchy.Anonymous || c.Nesting == hierarchy.Local ||
		c.Nesting == hierarchy.Member && c.InnerAccess&classfile.AccPrivate != 0
	if strings.HasPrefix(m.Name, "lambda$") {
		return false // its lambdas' callers call it too
	}
	return m.IsPrivate() || hidden && (m.IsConstructor() || m.IsStatic())
}

// eachCall calls fn for every call of m in the nest, and for every lambda of the
// nest that captures arguments of m (fn's operands are the call's or the
// captured ones), and reports whether all returned true.
func (nf *nestFlow) eachCall(m *hierarchy.Method, fn func(*localFlow, *facts.Call) bool) bool {
	for _, c := range nf.nest {
		for _, k := range c.Methods {
			f := nf.a.prog.Facts(k)
			if f == nil {
				continue
			}
			for i := range f.Calls {
				call := &f.Calls[i]
				if call.Indy != nil && nf.lambdaImpl(call) != m || call.Indy == nil && nf.nestCallee(call) != m {
					continue
				}
				lf := nf.flow(k)
				if lf == nil || !fn(lf, call) {
					return false
				}
			}
		}
	}
	return true
}

// nestCallee returns the method a non-dynamic call of the nest selects when it is a
// method of the nest that no dispatch can replace (private, a constructor, static),
// else nil.
func (nf *nestFlow) nestCallee(c *facts.Call) *hierarchy.Method {
	if c.Indy != nil {
		return nil
	}
	owner := nf.a.h.Class(c.Ref.Class)
	if owner == nil || !slices.Contains(nf.nest, owner) {
		return nil
	}
	for _, m := range owner.Methods {
		if m.Name == c.Ref.Name && m.Desc == c.Ref.Desc && (m.IsPrivate() || m.IsConstructor() || m.IsStatic()) {
			return m
		}
	}
	return nil
}

// selfCallee returns the method of lf's class that c calls on this, when the class
// is anonymous or local (no subclass overrides it), else nil.
func (nf *nestFlow) selfCallee(lf *localFlow, c *facts.Call) *hierarchy.Method {
	cl := lf.m.Class
	if c.Indy != nil || c.Ref.Class != cl.Name || lf.m.IsStatic() || cl.Nesting != hierarchy.Anonymous && cl.Nesting != hierarchy.Local {
		return nil
	}
	ops := lf.operands(c.PC)
	if len(ops) == 0 || len(ops[0]) != 1 || ops[0][0] != (facts.Def{Kind: facts.DefParam, N: 0}) {
		return nil
	}
	for _, m := range cl.Methods {
		if m.Name == c.Ref.Name && m.Desc == c.Ref.Desc && !m.IsStatic() {
			return m
		}
	}
	return nil
}

// lambdaImpl returns the implementation of a LambdaMetafactory invokedynamic when
// it is a private method of the nest (a lambda body), else nil.
func (nf *nestFlow) lambdaImpl(c *facts.Call) *hierarchy.Method {
	impl, ok := c.Indy.LambdaImpl()
	if !ok {
		return nil
	}
	owner := nf.a.h.Class(impl.Ref.Class)
	if owner == nil || !slices.Contains(nf.nest, owner) {
		return nil
	}
	for _, m := range owner.Methods {
		if m.Name == impl.Ref.Name && m.Desc == impl.Ref.Desc && m.IsPrivate() {
			return m
		}
	}
	return nil
}

// nestField returns the field the access at pc names when only the nest accesses
// it: a private field of a nest class, or a synthetic one of an anonymous or local
// class (javac's copies of captured locals), else nil.
func (nf *nestFlow) nestField(lf *localFlow, pc int) *hierarchy.Field {
	x := lf.fieldAt(pc)
	if x == nil {
		return nil
	}
	owner := nf.a.h.Class(x.Ref.Class)
	if owner == nil {
		return nil
	}
	f, err := nf.a.h.ResolveField(owner, x.Ref.Name, x.Ref.Desc)
	if err != nil || f == nil || !slices.Contains(nf.nest, f.Class) {
		return nil
	}
	local := f.Class.Nesting == hierarchy.Anonymous || f.Class.Nesting == hierarchy.Local
	if f.Access&classfile.AccPrivate != 0 || local && f.Access&classfile.AccSynthetic != 0 {
		return f
	}
	return nil
}

// privilegedRun returns the body of the privileged action that the doPrivileged
// call c runs, when the action is one of the nest's made where c is and handed to
// doPrivileged alone (so that the call's result is what the body returns), else nil.
func (nf *nestFlow) privilegedRun(lf *localFlow, c *facts.Call) *hierarchy.Method {
	if c.Op != bytecode.Invokestatic || c.Ref.Class != accessController || !strings.HasPrefix(c.Ref.Name, "doPrivileged") {
		return nil
	}
	ops := lf.operands(c.PC)
	if len(ops) == 0 || len(ops[0]) != 1 || ops[0][0].Kind != facts.DefInstr {
		return nil
	}
	at := ops[0][0].N
	var run *hierarchy.Method
	if mk := lf.callAt(at); mk != nil && mk.Indy != nil {
		run = nf.lambdaImpl(mk)
	} else if al := lf.allocAt(at); al != nil {
		if cl := nf.a.h.Class(al.Type); al.Dims == 0 && cl != nil && slices.Contains(nf.nest, cl) {
			for _, m := range cl.Methods {
				if m.Name == "run" && strings.HasPrefix(m.Desc, "()") {
					run = m
				}
			}
		}
	}
	if run == nil {
		return nil
	}
	if _, ok := nf.privilegedCalls(run); !ok {
		return nil
	}
	return run
}

// privilegedCall is a doPrivileged call of the nest that runs an action.
type privilegedCall struct {
	lf *localFlow
	pc int32
}

// privilegedCalls returns the doPrivileged calls that run the privileged action
// whose body is run, when every action with that body is made in the nest and
// handed straight to doPrivileged: a lambda (run is its implementation) or an
// anonymous class (run is its run method). ok is false otherwise.
func (nf *nestFlow) privilegedCalls(run *hierarchy.Method) (calls []privilegedCall, ok bool) {
	lambda := strings.HasPrefix(run.Name, "lambda$") && run.IsPrivate()
	if !lambda && (run.Name != "run" || run.Class.Nesting != hierarchy.Anonymous) {
		return nil, false
	}
	found := false
	for _, c := range nf.nest {
		for _, k := range c.Methods {
			f := nf.a.prog.Facts(k)
			if f == nil {
				continue
			}
			var makers []int
			if lambda {
				for i := range f.Calls {
					if f.Calls[i].Indy != nil && nf.lambdaImpl(&f.Calls[i]) == run {
						makers = append(makers, int(f.Calls[i].PC))
					}
				}
			} else {
				for _, al := range f.Allocs {
					if al.Dims == 0 && al.Type == run.Class.Name {
						makers = append(makers, int(al.PC))
					}
				}
			}
			if len(makers) == 0 {
				continue
			}
			lf := nf.flow(k)
			if lf == nil {
				return nil, false
			}
			for _, at := range makers {
				found = true
				ok := lf.eachUse(facts.Def{Kind: facts.DefInstr, N: at}, func(pc int, _ bytecode.Opcode, c *facts.Call, n int, _ func(int) []facts.Def) bool {
					switch {
					case c == nil || n != 0:
						return false
					case !lambda && c.Op == bytecode.Invokespecial && c.Ref.Name == "<init>" && c.Ref.Class == run.Class.Name:
						return true // the anonymous class's constructor
					case c.Op == bytecode.Invokestatic && c.Ref.Class == accessController && strings.HasPrefix(c.Ref.Name, "doPrivileged"):
						calls = append(calls, privilegedCall{lf: lf, pc: c.PC})
						return true
					}
					return false
				})
				if !ok {
					return nil, false
				}
			}
		}
	}
	return calls, found
}
