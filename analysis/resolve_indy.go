package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// lambda is a functional object created by LambdaMetafactory: calls of its interface
// method on a receiver of a supertype of its interface reach its implementation.
type lambda struct {
	iface   *hierarchy.Class
	name    string
	descs   []string // erased descriptors of the interface method and of its bridges
	targets []int32  // implementation methods
	creator int32    // the method whose invokedynamic created it
	pc      int32    // that invokedynamic's
	// everywhere: the lambda also implements marker interfaces (altMetafactory's
	// FLAG_SERIALIZABLE, FLAG_MARKERS), through whose types the oracle's lambda
	// values do not follow it: every dispatch of its interface may reach it.
	everywhere bool
}

// invokedynamic handles an invokedynamic instruction: the JVM calls the bootstrap
// method once; what the call site then does depends on the bootstrap.
func (s *solver) invokedynamic(at site, c *facts.Call) {
	in := c.Indy
	if in == nil {
		return
	}
	bc := s.h.Class(in.Bootstrap.Class)
	if bc != nil {
		if bm, err := s.h.ResolveMethod(bc, in.Bootstrap.Name, in.Bootstrap.Desc, in.Bootstrap.Interface); err == nil && bm != nil {
			s.edge(at, bm, bootstrapReason)
		}
	}
	if bc != nil && !bc.Phantom && bc.Origin != hierarchy.JDK {
		s.callSiteTarget(at, c, in)
		return
	}
	switch in.Bootstrap.Class + "." + in.Bootstrap.Name {
	case "java/lang/invoke/LambdaMetafactory.metafactory", "java/lang/invoke/LambdaMetafactory.altMetafactory":
		s.lambdaSite(at, in)
	case "java/lang/runtime/ObjectMethods.bootstrap":
		// Records' toString/equals/hashCode read the components through the getter
		// handles given as static arguments (javac passes REF_getField handles, so no
		// accessor runs), and call toString (String.valueOf), equals (Objects.equals)
		// or hashCode (Objects.hashCode) on each component of a reference type.
		r := callgraph.Reason{Kind: callgraph.KindIndy, Resolver: "record", Evidence: "record component (ObjectMethods)"}
		for _, a := range in.Args {
			if a.Kind != facts.ConstMethodHandle {
				continue
			}
			s.handleTarget(at, a.RefKind, a.Ref, r)
			if a.RefKind == classfile.RefGetField {
				s.recordComponent(at, in.Name, a.Ref.Desc, r)
			}
		}
	case "java/lang/runtime/SwitchBootstraps.enumSwitch":
		// The labels are constants of the enum that the switch's selector has.
		if t := firstParamClass(in.Desc); t != "" {
			s.initialize(at, s.h.Class(t))
		}
	case "java/lang/invoke/StringConcatFactory.makeConcat", "java/lang/invoke/StringConcatFactory.makeConcatWithConstants":
		// The call site makes a String where the instruction runs.
		if s.stringClass != nil {
			s.oracle.Created(algo.DefOf(at.caller, at.pc, s.stringClass), s.stringClass)
		}
	}
	// The JDK's bootstraps call nothing of the program.
}

// callSiteTarget handles an invokedynamic whose bootstrap method is the program's:
// the instruction invokes the target of the call site that the bootstrap returned,
// a method handle the bootstrap made from its handle arguments or its own lookups,
// which the site does not know. The handle constants among the arguments, which the
// JVM resolves with the instruction's class's access, are handles the program holds.
func (s *solver) callSiteTarget(at site, c *facts.Call, in *facts.Indy) {
	for _, a := range in.Args {
		s.handleConst(at, a, 0)
	}
	bsm := strings.ReplaceAll(in.Bootstrap.Class, "/", ".") + "." + in.Bootstrap.Name
	d := &dynamicSite{at: at, call: c, feature: callgraph.FeatMethodHandle, name: "invokedynamic " + in.Name + " (bootstrap " + bsm + ")",
		reason: callgraph.Reason{Kind: callgraph.KindMethodHandle, Resolver: "methodhandle"}}
	what := "any public method or constructor, one accessible from this class, or a target of a handle the program holds (its lookups' and its bootstrap methods' handle arguments)"
	if !s.fallbackLevel().RespectsEncapsulation() {
		what = "any concrete method or constructor"
	}
	d.reason.Evidence = "invokedynamic: the target of the call site that " + bsm + " returned is not known here: " + what + " may be called (and any <clinit>)"
	d.unresolved = d.reason.Evidence
	d.fallback = s.handleFallback(d)
	s.resolveSite(d)
}

// maxConstDepth bounds the nesting of dynamic constants among bootstrap arguments
// that handleConst follows (the class file's own nesting is finite: the extractor
// rejects cycles).
const maxConstDepth = 16

// handleConst handles a MethodHandle or Dynamic constant that an instruction loads
// or that the JVM resolves as a bootstrap argument: a handle is one the program
// holds (a member of the handle set from Encap-Respect on, which unknown handles'
// invocations reach); a dynamic constant's bootstrap method runs where the constant
// is first resolved, after its own arguments are.
func (s *solver) handleConst(at site, c facts.Constant, depth int) {
	switch {
	case c.Kind == facts.ConstMethodHandle && s.opts.Level.RespectsEncapsulation():
		k := s.h.Class(c.Ref.Class)
		if k == nil {
			return
		}
		m, err := s.h.ResolveMethod(k, c.Ref.Name, c.Ref.Desc, c.Ref.Interface)
		if err != nil || m == nil || m.Name == "<clinit>" {
			return // a field's handle calls nothing
		}
		var res siteResult
		if c.RefKind == classfile.RefInvokeVirtual || c.RefKind == classfile.RefInvokeInterface {
			res.virtual = []virtualCall{{declared: k, method: m}} // what the handle dispatches to
		} else {
			res.methods = []*hierarchy.Method{m}
		}
		s.collectTargets(at, res, s.handles().add(s))
	case c.Kind == facts.ConstDynamic && c.Dynamic != nil && depth < maxConstDepth:
		for _, a := range c.Dynamic.Args {
			s.handleConst(at, a, depth+1)
		}
		if bc := s.h.Class(c.Dynamic.Bootstrap.Class); bc != nil {
			if bm, err := s.h.ResolveMethod(bc, c.Dynamic.Bootstrap.Name, c.Dynamic.Bootstrap.Desc, c.Dynamic.Bootstrap.Interface); err == nil && bm != nil {
				s.edge(at, bm, bootstrapReason)
			}
		}
	}
}

// lambdaSite registers the lambda created by a LambdaMetafactory call site.
func (s *solver) lambdaSite(at site, in *facts.Indy) {
	if len(in.Args) < 3 || in.Args[1].Kind != facts.ConstMethodHandle || in.Args[0].Kind != facts.ConstMethodType {
		return
	}
	iface := s.h.Class(returnClass(in.Desc))
	if iface == nil {
		return
	}
	l := &lambda{iface: iface, name: in.Name, descs: []string{in.Args[0].Str}, creator: at.caller.ID, pc: at.pc}
	if strings.HasSuffix(in.Bootstrap.Name, "altMetafactory") && len(in.Args) > 3 && in.Args[3].Kind == facts.ConstInt {
		// altMetafactory flags: FLAG_SERIALIZABLE=1, FLAG_MARKERS=2, FLAG_BRIDGES=4;
		// then counts and values.
		flags, rest := in.Args[3].Int, in.Args[4:]
		l.everywhere = flags&3 != 0
		if flags&2 != 0 && len(rest) > 0 {
			n := int(rest[0].Int)
			if n+1 <= len(rest) {
				rest = rest[1+n:]
			}
		}
		if flags&4 != 0 && len(rest) > 0 {
			n := int(rest[0].Int)
			for i := 1; i <= n && i < len(rest); i++ {
				if rest[i].Kind == facts.ConstMethodType {
					l.descs = append(l.descs, rest[i].Str)
				}
			}
		}
	}
	impl := in.Args[1]
	ic := s.h.Class(impl.Ref.Class)
	if ic == nil {
		return
	}
	m, err := s.h.ResolveMethod(ic, impl.Ref.Name, impl.Ref.Desc, impl.Ref.Interface)
	if err != nil || m == nil {
		return
	}
	dispatched := false
	switch impl.RefKind {
	case classfile.RefNewInvokeSpecial:
		// Calling the lambda creates an instance (new), which initialises the class:
		// the edge is put on the invokedynamic, which runs before any such call. The
		// instance is made in the lambda's class, and is what the call returns.
		s.oracle.Created(algo.HiddenOf(ic), ic)
		s.initialize(at, ic)
		l.targets = []int32{m.ID}
	case classfile.RefInvokeStatic:
		s.initialize(at, m.Class) // as an invokestatic would
		l.targets = []int32{m.ID}
	case classfile.RefInvokeVirtual, classfile.RefInvokeInterface:
		if m.IsPrivate() || m.Access&accFinal != 0 {
			l.targets = []int32{m.ID}
			break
		}
		// A method reference (String::length, x::describe) dispatches on its
		// receiver: the lambda's targets are the dispatch's targets.
		dispatched = true
		if s.oracle.Fixed() {
			// CHA's answer never grows: the shared dispatch result serves every site.
			for _, id := range s.a.chaTargets(m, ic) {
				s.addLambdaTarget(l, id)
			}
			break
		}
		// A bound receiver (x::describe) is the first value the lambda captures:
		// the calls dispatch on its classes.
		recv := algo.Any(ic)
		if paramCount(in.Desc) > 0 {
			recv = algo.OperandOf(at.caller, at.pc, 0, ic)
		}
		seen := map[int32]bool{}
		s.oracle.Types(recv, func(c *hierarchy.Class) {
			if t := s.h.Select(c, m); t != nil && !seen[t.ID] {
				seen[t.ID] = true
				s.addLambdaTarget(l, t.ID)
			}
		})
	default:
		l.targets = []int32{m.ID}
	}
	if !dispatched {
		s.captured(l, m.ID) // addLambdaTarget tells the oracle of dispatched targets
	}
	if s.inherit != nil {
		s.probeLambda(l)
	}
	s.lambdas[l.name] = append(s.lambdas[l.name], l)
	for _, g := range s.byName[l.name] {
		s.matchLambda(g, l)
	}
	if !s.lambdaIfaceSeen[iface.ID] {
		s.lambdaIfaceSeen[iface.ID] = true
		s.ifaceCreator[iface.ID] = l.creator
		s.lambdaIfaces = append(s.lambdaIfaces, iface)
		for i := 0; i < len(s.ifaceGroups); i++ {
			s.matchDefault(s.ifaceGroups[i], iface)
		}
	}
}

// addLambdaTarget adds a target found later (by RTA) to a registered lambda and to the
// groups it matches.
func (s *solver) addLambdaTarget(l *lambda, id int32) {
	l.targets = append(l.targets, id)
	s.captured(l, id)
	for _, g := range s.byName[l.name] {
		if g.lambdaSet >= 0 && s.lambdaMatches(g, l) && (g.keep == nil || g.keep(s.methods[id])) {
			s.growCond(g.lambdaSet, id, l.creator)
		}
	}
}

func (s *solver) lambdaMatches(g *group, l *lambda) bool {
	if !s.h.IsSubtype(l.iface, g.declared) {
		return false
	}
	if g.lambdaSites != nil && !g.lambdaSites[siteKey{l.creator, l.pc}] && !l.everywhere {
		return false // the oracle does not find l in the receiver
	}
	for _, d := range l.descs {
		if d == g.rm.Desc {
			return true
		}
	}
	return false
}

// matchLambda connects a dispatch group and a lambda when calls of the group may
// reach the lambda's implementation.
func (s *solver) matchLambda(g *group, l *lambda) {
	if !s.lambdaMatches(g, l) {
		return
	}
	s.ensureLambdaSet(g)
	for _, id := range l.targets {
		if g.keep == nil || g.keep(s.methods[id]) {
			s.growCond(g.lambdaSet, id, l.creator)
		}
	}
}

// ensureLambdaSet gives a group its set of targets reached through lambdas, with an
// edge to it from every site of the group.
func (s *solver) ensureLambdaSet(g *group) {
	if g.lambdaSet >= 0 {
		return
	}
	if s.inherit != nil && !s.oldLambdas().fresh[g.key] {
		// In a probe every lambda set comes from the run it updates (inheritLambdaSet),
		// or is made for a dispatch whose callers it all visits (freshLambdaSet): a
		// dispatch of the probe's that had none makes it so.
		s.freshLambdaSet(&oldLambdaGroup{g: group{key: g.key}, set: -1})
	}
	g.lambdaSet = s.newSet()
	s.lambdaDispatch(g.lambdaSet)
	s.live[g.lambdaSet] = true
	s.cond[g.lambdaSet] = map[int32]int32{}
	lr := s.reason(lambdaReason)
	for _, at := range g.sites {
		s.bundle(at, g.lambdaSet, lr, false)
	}
}

// handleTarget adds an edge to the member a constant method handle refers to.
func (s *solver) handleTarget(at site, kind uint8, ref classfile.Ref, r callgraph.Reason) {
	c := s.h.Class(ref.Class)
	if c == nil {
		return
	}
	switch kind {
	case classfile.RefGetField, classfile.RefGetStatic, classfile.RefPutField, classfile.RefPutStatic:
		if kind == classfile.RefGetStatic || kind == classfile.RefPutStatic {
			if fd, err := s.h.ResolveField(c, ref.Name, ref.Desc); err == nil && fd != nil {
				s.initialize(at, fd.Class)
			}
		}
		return
	}
	m, err := s.h.ResolveMethod(c, ref.Name, ref.Desc, ref.Interface)
	if err != nil || m == nil {
		return
	}
	switch kind {
	case classfile.RefInvokeVirtual, classfile.RefInvokeInterface:
		if !m.IsPrivate() && m.Access&accFinal == 0 {
			s.dispatch(at, algo.Any(c), m, r)
			return
		}
	case classfile.RefNewInvokeSpecial:
		s.oracle.Created(algo.Any(c), c)
		s.initialize(at, c)
	case classfile.RefInvokeStatic:
		s.initialize(at, m.Class)
	}
	s.edge(at, m, r)
}

// recordComponent adds the call that a record's generated toString, equals or
// hashCode (name) makes on a component of field descriptor desc.
func (s *solver) recordComponent(at site, name, desc string, r callgraph.Reason) {
	var mdesc string
	switch name {
	case "toString":
		mdesc = "()Ljava/lang/String;"
	case "equals":
		mdesc = "(Ljava/lang/Object;)Z"
	case "hashCode":
		mdesc = "()I"
	default:
		return
	}
	var c *hierarchy.Class
	switch {
	case strings.HasPrefix(desc, "L") && strings.HasSuffix(desc, ";"):
		c = s.h.Class(desc[1 : len(desc)-1])
	case strings.HasPrefix(desc, "["):
		c = s.h.Object() // an array's methods are Object's
	}
	if c == nil || c.Phantom {
		return
	}
	m, err := s.h.ResolveMethod(c, name, mdesc, c.IsInterface())
	if err != nil || m == nil {
		return
	}
	if desc[0] == '[' || m.Access&accFinal != 0 || c.IsFinal() && m.Class == c {
		s.edge(at, m, r)
		return
	}
	s.dispatch(at, algo.Any(c), m, r)
}

// matchDefault connects a dispatch group on an interface and a lambda whose class
// inherits a default method the group's calls select: a default method of the
// lambda's interface or of its superinterfaces, including the bridges javac
// generates in an interface that redeclares a generic method.
func (s *solver) matchDefault(g *group, iface *hierarchy.Class) {
	if g.defaults[iface.ID] || !s.h.IsSubtype(iface, g.declared) {
		return
	}
	if g.defaults == nil {
		g.defaults = map[int32]bool{}
	}
	g.defaults[iface.ID] = true
	if m := s.inheritedDefault(g, iface); m != nil {
		s.ensureLambdaSet(g)
		s.growCond(g.lambdaSet, m.ID, s.ifaceCreator[iface.ID])
	}
}

// inheritedDefault returns the default method that g's calls select on a lambda of
// interface iface, or nil.
func (s *solver) inheritedDefault(g *group, iface *hierarchy.Class) *hierarchy.Method {
	if !s.h.IsSubtype(iface, g.declared) {
		return nil
	}
	m, err := s.h.ResolveMethod(iface, g.rm.Name, g.rm.Desc, true)
	if err != nil || m == nil || m.IsAbstract() || m.IsStatic() || m.IsPrivate() || !m.Class.IsInterface() {
		return nil
	}
	return m
}

// returnClass returns the internal class name of a method descriptor's return type,
// or "" when it is not a class.
func returnClass(desc string) string {
	i := strings.LastIndexByte(desc, ')')
	if i < 0 || i+1 >= len(desc) || desc[i+1] != 'L' || !strings.HasSuffix(desc, ";") {
		return ""
	}
	return desc[i+2 : len(desc)-1]
}

// firstParamClass returns the internal class name of a method descriptor's first
// parameter, or "" when it is not a class.
func firstParamClass(desc string) string {
	if len(desc) < 2 || desc[0] != '(' || desc[1] != 'L' {
		return ""
	}
	if j := strings.IndexByte(desc, ';'); j > 2 {
		return desc[2:j]
	}
	return ""
}

// captured tells a Follower oracle that the arguments a lambda captures in its
// creator reach its implementation method's parameters.
// capturedParams returns how many leading parameters of m (its receiver first)
// every lambda or method reference with implementation m binds at its capture
// (typeflow.Config.Captures): the fewest values an invokedynamic of
// LambdaMetafactory naming m captures. It is 0 unless m is a private method, so
// that only its nest names it, and every method-handle constant naming m there is
// the implementation argument of such a site: a handle loaded or handed to
// another bootstrap method may be invoked with anything.
func (a *Analyzer) capturedParams(m *hierarchy.Method) int {
	if !m.IsPrivate() || m.Name == "<init>" {
		return 0
	}
	names := func(c facts.Constant) bool {
		return c.Kind == facts.ConstMethodHandle && c.Ref.Class == m.Class.Name && c.Ref.Name == m.Name && c.Ref.Desc == m.Desc
	}
	// other reports whether a bootstrap method, or a constant among its
	// arguments or those of the dynamic constants among them, names m.
	var other func(in *facts.Indy, skip int) bool
	other = func(in *facts.Indy, skip int) bool {
		if in.Bootstrap.Class == m.Class.Name && in.Bootstrap.Name == m.Name && in.Bootstrap.Desc == m.Desc {
			return true
		}
		for i, c := range in.Args {
			if i != skip && names(c) || c.Kind == facts.ConstDynamic && c.Dynamic != nil && other(c.Dynamic, -1) {
				return true
			}
		}
		return false
	}
	bound := -1
	for _, c := range a.h.NestClasses(m.Class) {
		for _, cm := range c.Methods {
			f := a.prog.Facts(cm)
			if f == nil {
				continue
			}
			for _, hc := range f.HandleConsts {
				if names(hc.Const) || hc.Const.Kind == facts.ConstDynamic && hc.Const.Dynamic != nil && other(hc.Const.Dynamic, -1) {
					return 0
				}
			}
			for _, call := range f.Calls {
				if call.Indy == nil {
					continue
				}
				skip := -1
				if impl, ok := call.Indy.LambdaImpl(); ok && names(impl) {
					skip = 1
					if n := paramCount(call.Indy.Desc); bound < 0 || n < bound {
						bound = n
					}
				}
				if other(call.Indy, skip) {
					return 0
				}
			}
		}
	}
	return max(bound, 0)
}

// lambdaDispatch tells an oracle that follows lambdas that set is a dispatch's
// targets through lambda objects (algo.LambdaFollower.LambdaDispatch).
func (s *solver) lambdaDispatch(set int32) {
	if lf, ok := s.oracle.(algo.LambdaFollower); ok {
		lf.LambdaDispatch(set)
	}
}

func (s *solver) captured(l *lambda, impl int32) {
	if s.fl != nil {
		s.fl.Captured(s.methods[l.creator], l.pc, s.methods[impl])
	}
}
