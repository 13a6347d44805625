package values

import (
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Str is an abstract string: a set of alternatives, each a sequence of literal parts
// and holes (unknown substrings). A Str without holes is a finite set of strings.
type Str struct {
	Alts   [][]Part
	Top    bool // too many alternatives, or nothing known at all
	Points []Point
	// Env says the value depends on a configured environment value (Correct-Env).
	Env bool
	// Unset holds the system properties the value took as unset in the analysed
	// environment (Correct-Env): without them it would have more alternatives.
	Unset []string
}

// Part is a literal or a hole.
type Part struct {
	Lit  string
	Hole bool
}

const maxAlts = 64

func lit(s string) Str     { return Str{Alts: [][]Part{{{Lit: s}}}} }
func hole(p ...Point) Str  { return Str{Alts: [][]Part{{{Hole: true}}}, Points: p} }
func top(p ...Point) Str   { return Str{Top: true, Points: p} }
func (s Str) finite() bool { return !s.Top && !s.hasHole() }
func (s Str) empty() bool  { return !s.Top && len(s.Alts) == 0 }
func (s Str) hasHole() bool {
	for _, a := range s.Alts {
		for _, p := range a {
			if p.Hole {
				return true
			}
		}
	}
	return false
}

// Values returns the strings of a finite Str.
func (s Str) Values() []string {
	if !s.finite() {
		return nil
	}
	out := make([]string, 0, len(s.Alts))
	for _, a := range s.Alts {
		var b strings.Builder
		for _, p := range a {
			b.WriteString(p.Lit)
		}
		out = append(out, b.String())
	}
	return out
}

// Shapes returns, for every alternative with holes, its literal prefix and suffix
// ("com.x.plugins." + s gives prefix "com.x.plugins."); ok is false when an
// alternative has neither, or the value is Top.
func (s Str) Shapes() (shapes [][2]string, ok bool) {
	if s.Top {
		return nil, false
	}
	for _, a := range s.Alts {
		var pre, suf strings.Builder
		i := 0
		for ; i < len(a) && !a[i].Hole; i++ {
			pre.WriteString(a[i].Lit)
		}
		j := len(a)
		for j > i && !a[j-1].Hole {
			j--
		}
		for _, p := range a[j:] {
			suf.WriteString(p.Lit)
		}
		if i < len(a) && pre.Len() == 0 && suf.Len() == 0 {
			return nil, false
		}
		shapes = append(shapes, [2]string{pre.String(), suf.String()})
	}
	return shapes, true
}

// dependsOn adds what o's value depends on in the environment to s's.
func (s *Str) dependsOn(o Str) {
	s.Env = s.Env || o.Env
	for _, k := range o.Unset {
		if !contains(s.Unset, k) {
			s.Unset = append(s.Unset, k)
		}
	}
}

func union(a, b Str) Str {
	out := Str{Top: a.Top || b.Top, Points: append(append([]Point(nil), a.Points...), b.Points...)}
	out.dependsOn(a)
	out.dependsOn(b)
	if out.Top {
		return out
	}
	seen := map[string]bool{}
	for _, alts := range [][][]Part{a.Alts, b.Alts} {
		for _, alt := range alts {
			k := altKey(alt)
			if !seen[k] {
				seen[k] = true
				out.Alts = append(out.Alts, alt)
			}
		}
	}
	if len(out.Alts) > maxAlts {
		out.Alts, out.Top = nil, true
	}
	return out
}

func altKey(a []Part) string {
	var b strings.Builder
	for _, p := range a {
		if p.Hole {
			b.WriteString("\x00*\x00")
		} else {
			b.WriteString(p.Lit)
		}
	}
	return b.String()
}

func concat(a, b Str) Str {
	out := Str{Top: a.Top || b.Top, Points: append(append([]Point(nil), a.Points...), b.Points...)}
	out.dependsOn(a)
	out.dependsOn(b)
	if out.Top {
		return out
	}
	if len(a.Alts)*len(b.Alts) > maxAlts {
		return Str{Top: true, Points: out.Points, Env: out.Env, Unset: out.Unset}
	}
	for _, x := range a.Alts {
		for _, y := range b.Alts {
			alt := append(append([]Part(nil), x...), y...)
			out.Alts = append(out.Alts, normalize(alt))
		}
	}
	return union(out, Str{})
}

// normalize merges adjacent literals and adjacent holes.
func normalize(a []Part) []Part {
	out := a[:0:0]
	for _, p := range a {
		if n := len(out); n > 0 {
			if p.Hole && out[n-1].Hole {
				continue
			}
			if !p.Hole && !out[n-1].Hole {
				out[n-1].Lit += p.Lit
				continue
			}
		}
		if !p.Hole && p.Lit == "" {
			continue
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		out = []Part{{Lit: ""}}
	}
	return out
}

// Analyzer evaluates abstract values for one run (one assumption level and
// environment). It is not safe for concurrent use.
type Analyzer struct {
	obs     Observer // nil unless observed (Observe)
	prog    Program
	ix      *Index
	h       *hierarchy.Hierarchy
	level   callgraph.Level
	env     Environment
	methods map[int32]*method
	memo    map[defKey]cached[Str]
	busy    map[defKey]bool
	loaded  map[loadKey]cached[Classes]
	frame   *frame                         // the call whose callee is being evaluated; see frames.go
	writes  map[int32]cached[[]fieldWrite] // by field ID
	// fieldBusy holds the fields whose Class or Method values are being
	// evaluated; cuts counts the recursive reads cut short (see enterField).
	fieldBusy map[int32]bool
	cuts      int
	// deepest is the greatest depth the current evaluation reached, depthCuts
	// counts its stops at the depth bound, and memoAt keeps the results that
	// met one by the depth they were evaluated at (defStr).
	deepest   int
	depthCuts int
	memoAt    map[depthKey]cached[Str]
}

type defKey struct {
	m   int32
	def facts.Def
	fr  *frame // values of parameters depend on the frame
}

// New returns an analyzer for one run.
func New(prog Program, ix *Index, level callgraph.Level, env Environment) *Analyzer {
	return &Analyzer{prog: prog, ix: ix, h: prog.Hierarchy(), level: level, env: env,
		methods: map[int32]*method{}, memo: map[defKey]cached[Str]{}, memoAt: map[depthKey]cached[Str]{}, busy: map[defKey]bool{}, loaded: map[loadKey]cached[Classes]{}, writes: map[int32]cached[[]fieldWrite]{}, fieldBusy: map[int32]bool{}}
}

// StringOperand evaluates operand k of the instruction at pc in m.
func (a *Analyzer) StringOperand(m *hierarchy.Method, pc int32, k int) Str {
	mi := a.methodInfo(m)
	if mi == nil {
		return top(beyond(Point{Method: m, PC: pc, Line: -1, Kind: "method without analysable code"}))
	}
	return a.defsStr(mi, mi.operand(pc, k), 0)
}

const maxDepth = 6

func (a *Analyzer) defsStr(mi *method, defs []facts.Def, depth int) Str {
	if len(defs) == 0 {
		return top(Point{Method: mi.m, PC: -1, Line: -1, Kind: "no reaching definition"})
	}
	var out Str
	for i, d := range defs {
		v := a.defStr(mi, d, depth)
		if i == 0 {
			out = v
		} else {
			out = union(out, v)
		}
	}
	return out
}

// defStr evaluates one definition, memoised; a definition that depends on itself (a
// loop, recursion) is unknown.
//
// Answers must not depend on the order of questions (an update in place answers
// some again with a new analyzer, and must equal a new run). A result that met a
// loop is not kept: it holds for the loop's evaluation only. One that met the
// depth bound is kept for the same depth; another is reused wherever its
// evaluation, as deep as it went, fits within the bound again. A reuse gives
// what evaluating anew would.
func (a *Analyzer) defStr(mi *method, d facts.Def, depth int) Str {
	k := defKey{mi.m.ID, d, a.frame}
	c, ok := a.memo[k]
	if !ok || depth+c.height > maxDepth {
		c, ok = a.memoAt[depthKey{k, depth}]
	}
	if ok {
		a.reached(depth + c.height)
		if c.cut {
			a.depthCuts++
		}
		a.reuse(c.q)
		a.readUnset(c.v.Unset)
		return c.v
	}
	if depth > maxDepth {
		a.depthCuts++
	}
	if a.busy[k] {
		a.cuts++
	}
	if a.busy[k] || depth > maxDepth {
		return hole(Point{Method: mi.m, PC: int32(d.N), Line: mi.line(int32(d.N)), Kind: "value computed in a loop or deep call chain"})
	}
	a.busy[k] = true
	cuts, depthCuts := a.cuts, a.depthCuts
	outer := a.deepest
	a.deepest = depth
	v := a.evalStr(mi, d, depth)
	height := a.deepest - depth
	a.deepest = max(outer, a.deepest)
	delete(a.busy, k)
	switch {
	case a.cuts != cuts:
	case a.depthCuts != depthCuts:
		a.memoAt[depthKey{k, depth}] = cached[Str]{v: v, q: a.origin(), height: height, cut: true}
	default:
		a.memo[k] = cached[Str]{v: v, q: a.origin(), height: height}
	}
	return v
}

// depthKey is a definition evaluated at a depth.
type depthKey struct {
	defKey
	depth int
}

// reached notes that an evaluation went to depth.
func (a *Analyzer) reached(depth int) {
	a.deepest = max(a.deepest, depth)
}

func (a *Analyzer) point(mi *method, pc int32, kind string) Point {
	return Point{Method: mi.m, PC: pc, Line: mi.line(pc), Kind: kind}
}

func (a *Analyzer) evalStr(mi *method, d facts.Def, depth int) Str {
	switch d.Kind {
	case facts.DefParam:
		if fr, defs, ok := a.boundArg(mi, d.N); ok {
			return withFrame(a, fr.up, func() Str { return a.defsStr(fr.caller, defs, depth+1) })
		}
		return withFrame(a, nil, func() Str { return a.paramStr(mi, d.N, depth) })
	case facts.DefCaught, facts.DefUnknown:
		return hole(a.point(mi, int32(d.N), "exception or unknown value"))
	}
	pc := int32(d.N)
	if s, ok := mi.strs[pc]; ok {
		return lit(s)
	}
	if c, ok := mi.calls[pc]; ok {
		return a.callStr(mi, c, depth)
	}
	if fa, ok := mi.fields[pc]; ok && !fa.Write {
		return a.fieldStr(mi, fa, depth)
	}
	if _, ok := mi.casts[pc]; ok {
		return a.defsStr(mi, mi.operand(pc, 0), depth)
	}
	in, ok := mi.opAt(int(pc))
	switch {
	case ok && in.Op == bytecode.AconstNull:
		return Str{} // null: no string reaches the site along this definition
	case ok && in.Op == bytecode.Aaload:
		if v, ok := a.splitElemStr(mi, pc, depth); ok {
			return v
		}
		if v, ok := a.freshElemStr(mi, pc, depth); ok {
			return v
		}
	}
	return hole(beyond(a.point(mi, pc, "computed value")))
}

// paramStr follows a parameter back to the callers, which Correct-String licenses
// where they are closed (closedCallers).
func (a *Analyzer) paramStr(mi *method, n int, depth int) Str {
	m := mi.m
	what := "parameter " + itoa(int32(n))
	if !m.IsStatic() {
		if n == 0 {
			return hole(a.point(mi, 0, "receiver"))
		}
		what = "parameter " + itoa(int32(n-1))
	}
	if !a.closedCallers(m) {
		kind := "public " + what + " of " + m.Name
		switch {
		case a.upcalled(m):
			kind = what + " of " + m.Name + ", which the JVM or native code calls"
		case m.Access&classfile.AccProtected != 0:
			kind = "protected " + what + " of " + m.Name
		}
		return hole(beyond(Point{Method: m, PC: 0, Line: mi.f.FirstLine, Kind: kind}))
	}
	callers, ok := a.argSources(m, n)
	if !ok {
		return hole(beyond(Point{Method: m, PC: 0, Line: mi.f.FirstLine, Kind: what + " of " + m.Name + ", which is also called through a method handle or by the JVM"}))
	}
	var out Str
	for i, cr := range callers {
		cmi := a.methodInfo(cr.Caller)
		var v Str
		if cmi == nil {
			v = hole(Point{Method: cr.Caller, PC: -1, Line: -1, Kind: "caller without analysable code"})
		} else {
			c := &cmi.f.Calls[cr.Call]
			k := n // operand index: the receiver is operand 0 for instance methods too
			v = a.defsStr(cmi, cmi.operand(c.PC, k), depth+1)
		}
		if i == 0 {
			out = v
		} else {
			out = union(out, v)
		}
	}
	return out
}

// fieldStr reads a field: a followable one (private or final) is the union of its
// constant value and every value its nest stores in it; others come from outside.
func (a *Analyzer) fieldStr(mi *method, fa *facts.FieldAccess, depth int) Str {
	fd := a.resolveField(fa)
	if fd == nil {
		return hole(a.point(mi, fa.PC, "unresolved field"))
	}
	if !a.followable(fd) {
		return hole(beyond(a.point(mi, fa.PC, "field "+fd.Class.Name+"."+fd.Name+" written from outside")))
	}
	var out Str
	first := true
	add := func(v Str) {
		if first {
			out, first = v, false
		} else {
			out = union(out, v)
		}
	}
	if cf := a.h.File(fd.Class); cf != nil {
		if idx := cf.Fields[fd.Index].ConstantValue; idx != 0 && cf.Pool.Tag(idx) == classfile.TagString {
			add(lit(cf.Pool.String(idx)))
		}
	}
	for _, w := range a.fieldWrites(fd) {
		add(withFrame(a, nil, func() Str { return a.defsStr(w.mi, w.defs, depth+1) }))
	}
	if first {
		return hole(beyond(a.point(mi, fa.PC, "field "+fd.Class.Name+"."+fd.Name+" never written")))
	}
	return out
}

// callStr evaluates the result of a call.
func (a *Analyzer) callStr(mi *method, c *facts.Call, depth int) Str {
	if c.Indy != nil {
		if c.Indy.Bootstrap.Class == "java/lang/invoke/StringConcatFactory" {
			return a.concatStr(mi, c, depth)
		}
		return hole(beyond(a.point(mi, c.PC, "invokedynamic result")))
	}
	owner, name := c.Ref.Class, c.Ref.Name
	arg := func(k int) Str { return a.defsStr(mi, mi.operand(c.PC, k), depth) }
	switch {
	case owner == "java/lang/String" && (name == "intern" || name == "toString"):
		return arg(0)
	case owner == "java/lang/String" && name == "valueOf" && (c.Ref.Desc == "(Ljava/lang/Object;)Ljava/lang/String;" || c.Ref.Desc == "([C)Ljava/lang/String;"):
		return arg(0)
	case owner == "java/lang/String" && name == "concat":
		return concat(arg(0), arg(1))
	case owner == "java/lang/Object" && name == "toString":
		return arg(0)
	case (owner == "java/lang/StringBuilder" || owner == "java/lang/StringBuffer") && name == "toString":
		return a.builderStr(mi, mi.operand(c.PC, 0), depth, 0)
	case owner == "java/lang/System" && name == "getProperty", owner == "java/lang/System" && name == "getenv" && c.Ref.Desc == "(Ljava/lang/String;)Ljava/lang/String;",
		owner == "java/security/Security" && name == "getProperty":
		return a.envStr(mi, c, depth)
	case owner == "java/security/AccessController" && strings.HasPrefix(name, "doPrivileged"):
		if v, ok := a.privilegedStr(mi, c, depth); ok {
			return v
		}
	}
	if owner == "java/lang/Class" && name == "getName" && c.Ref.Desc == "()Ljava/lang/String;" {
		return a.classNameStr(mi, c, depth)
	}
	if owner == "java/lang/String" && strings.HasSuffix(c.Ref.Desc, ")Ljava/lang/String;") && c.Op != bytecode.Invokestatic {
		return a.stringMethodStr(mi, c, depth)
	}
	if a.boundTarget(mi, c) != nil {
		if v, ok := a.returnStr(mi, c, depth); ok {
			return v
		}
	}
	// Values from outside by definition (docs/assumption-levels.md, Correct-String: "a
	// file read, a collection") are specification points at the call, where a user
	// reads them: the overrides of those APIs are not followed (that would only move
	// the point into the JDK's internals).
	kind := ""
	switch {
	case strings.HasSuffix(owner, "Properties") && name == "getProperty":
		kind = "Properties.getProperty"
	case name == "readLine" || name == "read" || strings.HasSuffix(owner, "Reader") || strings.HasSuffix(owner, "Stream"):
		kind = "file or stream read (" + shortName(owner) + "." + name + ")"
	case strings.HasPrefix(owner, "java/util/") && (name == "get" || name == "next" || name == "remove" || name == "poll" || name == "getOrDefault"):
		kind = "collection or map (" + shortName(owner) + "." + name + ")"
	}
	if kind != "" {
		return hole(beyond(a.point(mi, c.PC, kind)))
	}
	if v, ok := a.returnStr(mi, c, depth); ok {
		return v
	}
	return hole(beyond(a.point(mi, c.PC, "result of "+shortName(owner)+"."+name)))
}

func shortName(internal string) string {
	return internal[strings.LastIndexByte(internal, '/')+1:]
}

// returnStr follows a call into its callees' returns: the statically bound callee, or
// every method a virtual call may dispatch to (see callTargets), each evaluated in a
// frame that binds its parameters to the call's arguments.
func (a *Analyzer) returnStr(mi *method, c *facts.Call, depth int) (Str, bool) {
	callees, ok := a.callTargets(mi, c)
	if !ok {
		return Str{}, false
	}
	return a.calleesStr(mi, c, callees, depth)
}

// calleesStr is the union of what the callees of c return, each evaluated in a frame
// that binds its parameters to c's operands; ok is false when a callee has no code to
// follow.
func (a *Analyzer) calleesStr(mi *method, c *facts.Call, callees []*hierarchy.Method, depth int) (Str, bool) {
	var out Str
	first := true
	if calleeReturns(a, mi, c, callees,
		func(cmi *method, defs []facts.Def) Str { return a.defsStr(cmi, defs, depth+1) },
		func(v Str) {
			if first {
				out, first = v, false
			} else {
				out = union(out, v)
			}
		}) != nil {
		return Str{}, false
	}
	return out, true // no return at all: the call never completes normally, no value
}

// privilegedStr evaluates doPrivileged(action) as action.run() when every definition
// of the action is a lambda or method reference created in mi (the value each
// implementation returns, with its parameters bound to the captured arguments: the
// operands of the creating invokedynamic) or an object of an action class allocated
// in mi (its run's value). ok is false otherwise.
func (a *Analyzer) privilegedStr(mi *method, c *facts.Call, depth int) (Str, bool) {
	defs := mi.operand(c.PC, 0)
	if len(defs) == 0 {
		return Str{}, false
	}
	var out Str
	for i, d := range defs {
		if d.Kind != facts.DefInstr {
			return Str{}, false
		}
		var v Str
		if t, ok := mi.allocs[int32(d.N)]; ok {
			// An action of a class of its own (an anonymous PrivilegedAction): the
			// object is exactly of that class, so doPrivileged's run() runs its
			// run; what it captured is in its fields (val$name), which the field
			// analysis follows to the constructor's callers.
			run := a.actionRun(t)
			if run == nil {
				return Str{}, false
			}
			if v, ok = a.calleesStr(mi, c, []*hierarchy.Method{run}, depth); !ok {
				return Str{}, false
			}
		} else {
			mk, ok := mi.calls[int32(d.N)]
			if !ok {
				return Str{}, false
			}
			impl, ok := mk.Indy.LambdaImpl()
			if !ok {
				return Str{}, false
			}
			ic := a.h.Class(impl.Ref.Class)
			if ic == nil {
				return Str{}, false
			}
			callee, err := a.h.ResolveMethod(ic, impl.Ref.Name, impl.Ref.Desc, impl.Ref.Interface)
			if err != nil || callee == nil || !strings.HasSuffix(callee.Desc, ")Ljava/lang/String;") && !strings.HasSuffix(callee.Desc, ")Ljava/lang/Object;") {
				return Str{}, false
			}
			// The body's parameters are the captured arguments: the operands of the
			// invokedynamic that created the action.
			if v, ok = a.calleesStr(mi, mk, []*hierarchy.Method{callee}, depth); !ok {
				return Str{}, false
			}
		}
		if i == 0 {
			out = v
		} else {
			out = union(out, v)
		}
	}
	return out, true
}

// actionRun returns the run method that doPrivileged runs on an object of class
// name, a PrivilegedAction or PrivilegedExceptionAction: its run() returning
// Object, or, when that is the bridge javac writes, the run() returning String it
// calls; nil when the class is none of those.
func (a *Analyzer) actionRun(name string) *hierarchy.Method {
	c := a.h.Class(name)
	if c == nil || c.Phantom {
		return nil
	}
	action := false
	for _, n := range []string{"java/security/PrivilegedAction", "java/security/PrivilegedExceptionAction"} {
		if i := a.h.Class(n); i != nil && a.h.IsSubtype(c, i) {
			action = true
		}
	}
	if !action {
		return nil
	}
	m, err := a.h.ResolveMethod(c, "run", "()Ljava/lang/Object;", false)
	if err != nil || m == nil || m.IsAbstract() {
		return nil
	}
	if m.Access&accBridge != 0 {
		if s, err := a.h.ResolveMethod(c, "run", "()Ljava/lang/String;", false); err == nil && s != nil && !s.IsAbstract() {
			return s
		}
	}
	return m
}

// accBridge marks a bridge method, which javac writes to call the method it bridges.
const accBridge = 0x0040

// boundTarget returns the one method a call can reach without dispatch: static,
// special, private or final methods, or methods of final classes.
func (a *Analyzer) boundTarget(mi *method, c *facts.Call) *hierarchy.Method {
	owner := a.h.Class(c.Ref.Class)
	if owner == nil {
		return nil
	}
	rm, err := a.h.ResolveMethod(owner, c.Ref.Name, c.Ref.Desc, c.Ref.Interface)
	if err != nil || rm == nil || rm.IsAbstract() || rm.IsNative() {
		return nil
	}
	switch c.Op {
	case bytecode.Invokestatic, bytecode.Invokespecial:
		return rm
	}
	if rm.IsPrivate() || rm.IsFinal() || owner.IsFinal() && rm.Class == owner {
		return rm
	}
	return nil
}

// concatStr evaluates an invokedynamic StringConcatFactory call: the recipe's \1
// marks a dynamic argument and \2 a constant from the bootstrap arguments.
func (a *Analyzer) concatStr(mi *method, c *facts.Call, depth int) Str {
	in := c.Indy
	nargs := len(mi.flow.Operands(int(c.PC)))
	if in.Bootstrap.Name != "makeConcatWithConstants" || len(in.Args) == 0 || in.Args[0].Kind != facts.ConstString {
		// makeConcat: the arguments in order.
		out := lit("")
		for k := 0; k < nargs; k++ {
			out = concat(out, a.defsStr(mi, mi.operand(c.PC, k), depth))
		}
		return out
	}
	recipe := in.Args[0].Str
	consts := in.Args[1:]
	out := lit("")
	arg, ci := 0, 0
	var run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			out = concat(out, lit(run.String()))
			run.Reset()
		}
	}
	for _, r := range recipe {
		switch r {
		case '\x01':
			flush()
			out = concat(out, a.defsStr(mi, mi.operand(c.PC, arg), depth))
			arg++
		case '\x02':
			if ci < len(consts) && consts[ci].Kind == facts.ConstString {
				run.WriteString(consts[ci].Str)
			} else {
				flush()
				out = concat(out, hole(a.point(mi, c.PC, "non-string concatenation constant")))
			}
			ci++
		default:
			run.WriteRune(r)
		}
	}
	flush()
	return out
}

// builderStr evaluates the content of a StringBuilder/StringBuffer from its
// definitions: append chains back to the allocation and its constructor.
// consumed is 1 when the builder is the receiver of an append of the chain being
// evaluated, so that append is not mistaken for a separate statement.
func (a *Analyzer) builderStr(mi *method, defs []facts.Def, depth, consumed int) Str {
	var out Str
	for i, d := range defs {
		v := a.builderDef(mi, d, depth, consumed)
		if i == 0 {
			out = v
		} else {
			out = union(out, v)
		}
	}
	if len(defs) == 0 {
		return hole(a.point(mi, -1, "unknown builder"))
	}
	return out
}

func (a *Analyzer) builderDef(mi *method, d facts.Def, depth, consumed int) Str {
	if d.Kind != facts.DefInstr {
		return hole(a.point(mi, int32(d.N), "builder from a parameter"))
	}
	pc := int32(d.N)
	if c, ok := mi.calls[pc]; ok && c.Ref.Name == "append" && isBuilder(c.Ref.Class) {
		prefix := a.builderStr(mi, mi.operand(pc, 0), depth, 1)
		return concat(prefix, a.appendArg(mi, c, depth))
	}
	if t, ok := mi.allocs[pc]; ok && isBuilder(t) {
		return a.builderInit(mi, pc, t, depth, consumed)
	}
	return hole(a.point(mi, pc, "builder from elsewhere"))
}

func isBuilder(c string) bool {
	return c == "java/lang/StringBuilder" || c == "java/lang/StringBuffer"
}

// appendArg evaluates the argument of an append call.
func (a *Analyzer) appendArg(mi *method, c *facts.Call, depth int) Str {
	ops := mi.flow.Operands(int(c.PC))
	if len(ops) < 2 {
		return hole(a.point(mi, c.PC, "append"))
	}
	switch c.Ref.Desc[1] {
	case 'L':
		return a.defsStr(mi, ops[1], depth)
	case 'I', 'J', 'C', 'Z':
		if len(ops[1]) == 1 && ops[1][0].Kind == facts.DefInstr {
			if v, ok := mi.intConst(ops[1][0].N); ok {
				switch c.Ref.Desc[1] {
				case 'C':
					return lit(string(rune(v)))
				case 'Z':
					return lit(map[bool]string{true: "true", false: "false"}[v != 0])
				}
				return lit(itoa(v))
			}
		}
	}
	return hole(a.point(mi, c.PC, "appended value"))
}

// builderInit evaluates a builder's allocation: its constructor argument, and any
// appends on the builder that are not part of the chain (statements like
// sb.append(x)), which make the tail unknown since their order is not traced.
func (a *Analyzer) builderInit(mi *method, newPC int32, t string, depth, consumed int) Str {
	init := lit("")
	chained := 0
	for i := range mi.f.Calls {
		c := &mi.f.Calls[i]
		if c.Ref.Class != t {
			continue
		}
		recv := mi.operand(c.PC, 0)
		if len(recv) != 1 || recv[0].Kind != facts.DefInstr || int32(recv[0].N) != newPC {
			continue
		}
		switch c.Ref.Name {
		case "<init>":
			if c.Ref.Desc == "(Ljava/lang/String;)V" || c.Ref.Desc == "(Ljava/lang/CharSequence;)V" {
				init = a.defsStr(mi, mi.operand(c.PC, 1), depth)
			}
		case "append":
			chained++
		}
	}
	if chained > consumed {
		return concat(init, hole(a.point(mi, newPC, "builder appended in several statements")))
	}
	return init
}

// classNameStr evaluates Class.getName() on a Class object the class analysis knows
// completely: the binary names of its classes. Class constants of array types give
// no class, so an empty set stays unknown rather than "no name".
func (a *Analyzer) classNameStr(mi *method, c *facts.Call, depth int) Str {
	cls := a.classDefs(mi, mi.operand(c.PC, 0), depth+1)
	if !cls.Complete || len(cls.Set) == 0 {
		return hole(append(cls.Points, a.point(mi, c.PC, "Class.getName of an unknown class"))...)
	}
	var out Str
	for i, x := range cls.Set {
		v := lit(strings.ReplaceAll(x.Name, "/", "."))
		if i == 0 {
			out = v
		} else {
			out = union(out, v)
		}
	}
	out.Env = cls.Env
	out.Unset = cls.Unset
	return out
}

// stringMethodStr evaluates an instance method of String returning a String. The
// common transformations of names are computed on finite values; any other method,
// or a receiver that is not finite, gives an unknown value whose specification points
// are the receiver's and the arguments': String is final and immutable, so the result
// depends on nothing else, and the JDK's implementation is not worth following.
func (a *Analyzer) stringMethodStr(mi *method, c *facts.Call, depth int) Str {
	recv := a.defsStr(mi, mi.operand(c.PC, 0), depth)
	unknown := func(args ...Str) Str {
		ps := append([]Point(nil), recv.Points...)
		for _, x := range args {
			ps = append(ps, x.Points...)
		}
		if len(ps) == 0 {
			ps = []Point{a.point(mi, c.PC, "result of String."+c.Ref.Name)}
		}
		out := Str{Alts: [][]Part{{{Hole: true}}}, Points: ps}
		out.dependsOn(recv)
		return out
	}
	rs := recv.Values()
	if rs == nil {
		return unknown()
	}
	apply := func(f func(string) (string, bool)) Str {
		out := Str{}
		out.dependsOn(recv)
		for _, r := range rs {
			v, ok := f(r)
			if !ok {
				return unknown()
			}
			out = union(out, lit(v))
		}
		return out
	}
	switch c.Ref.Name + c.Ref.Desc {
	case "trim()Ljava/lang/String;":
		return apply(func(r string) (string, bool) {
			return strings.TrimFunc(r, func(x rune) bool { return x <= ' ' }), ascii(r)
		})
	case "intern()Ljava/lang/String;", "toString()Ljava/lang/String;":
		return recv
	case "replace(CC)Ljava/lang/String;":
		from, ok1 := a.charArg(mi, c, 1)
		to, ok2 := a.charArg(mi, c, 2)
		if !ok1 || !ok2 {
			return unknown()
		}
		return apply(func(r string) (string, bool) {
			return strings.ReplaceAll(r, string(from), string(to)), ascii(r)
		})
	case "replace(Ljava/lang/CharSequence;Ljava/lang/CharSequence;)Ljava/lang/String;":
		from := a.defsStr(mi, mi.operand(c.PC, 1), depth).Values()
		to := a.defsStr(mi, mi.operand(c.PC, 2), depth).Values()
		if len(from) != 1 || len(to) != 1 || from[0] == "" {
			return unknown()
		}
		return apply(func(r string) (string, bool) { return strings.ReplaceAll(r, from[0], to[0]), true })
	case "substring(I)Ljava/lang/String;", "substring(II)Ljava/lang/String;":
		begin, ok := a.intArg(mi, c, 1)
		if !ok {
			return unknown()
		}
		end := int32(-1)
		if c.Ref.Desc == "(II)Ljava/lang/String;" {
			if end, ok = a.intArg(mi, c, 2); !ok {
				return unknown()
			}
		}
		return apply(func(r string) (string, bool) {
			e := end
			if e < 0 {
				e = int32(len(r))
			}
			// Out of range: the call throws, and no string reaches the site.
			if !ascii(r) || begin < 0 || e > int32(len(r)) || begin > e {
				return "", false
			}
			return r[begin:e], true
		})
	}
	return unknown()
}

// ascii reports whether s is ASCII, where Java's UTF-16 indices and character
// classes agree with Go's byte-wise operations.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// intArg returns operand k of a call when it is one int constant.
func (a *Analyzer) intArg(mi *method, c *facts.Call, k int) (int32, bool) {
	defs := mi.operand(c.PC, k)
	if len(defs) != 1 || defs[0].Kind != facts.DefInstr {
		return 0, false
	}
	return mi.intConst(defs[0].N)
}

// charArg returns operand k of a call when it is one ASCII char constant.
func (a *Analyzer) charArg(mi *method, c *facts.Call, k int) (byte, bool) {
	v, ok := a.intArg(mi, c, k)
	if !ok || v < 0 || v >= 0x80 {
		return 0, false
	}
	return byte(v), true
}

// splitElemStr evaluates an element of an array that String.split made on a
// separator without regular-expression syntax ("a,b".split(",")[i]): the pieces of
// each of the receiver's strings. A receiver with no string (null, an unset
// property) makes no array, so no element; one not known makes pieces not known,
// from the receiver's sources. ok is false for other arrays.
func (a *Analyzer) splitElemStr(mi *method, pc int32, depth int) (Str, bool) {
	var out Str
	for i, d := range mi.operand(pc, 0) {
		c, ok := mi.calls[int32(d.N)]
		if d.Kind != facts.DefInstr || !ok || c.Ref.Class != "java/lang/String" || c.Ref.Name != "split" {
			return Str{}, false
		}
		seps := a.defsStr(mi, mi.operand(c.PC, 1), depth+1).Values()
		if len(seps) != 1 || seps[0] == "" || strings.ContainsAny(seps[0], `.$|()[{^?*+\`) {
			return Str{}, false
		}
		recv := a.defsStr(mi, mi.operand(c.PC, 0), depth+1)
		rs := recv.Values()
		v := Str{}
		switch {
		case recv.Top:
			v = top(recv.Points...)
		case rs == nil:
			// The pieces of a string not known are not known, for the string's
			// reasons (a property reachable code may set, a public parameter),
			// which its users need to see rather than an anonymous array element.
			v = hole(recv.Points...)
		}
		v.dependsOn(recv)
		for _, r := range rs {
			for _, piece := range splitJava(r, seps[0]) {
				v = union(v, lit(piece))
			}
		}
		if i == 0 {
			out = v
		} else {
			out = union(out, v)
		}
	}
	return out, true
}

// freshElemStr evaluates an element of an array that a static, private or final
// callee makes afresh, fills with strings and returns (jlink's
// SystemModulesMap.classNames(), an empty array in Debian's JDK 17): one of the
// strings stored; an element never stored is null, no string. ok is false for
// other arrays.
func (a *Analyzer) freshElemStr(mi *method, pc int32, depth int) (Str, bool) {
	var out Str
	for _, d := range mi.operand(pc, 0) {
		c, isCall := mi.calls[int32(d.N)]
		if d.Kind != facts.DefInstr || !isCall {
			return Str{}, false
		}
		t := a.boundTarget(mi, c)
		// The caller only reads the array: nothing else stores into it.
		if t == nil || !mi.eachArrayUse(d, func(op bytecode.Opcode, n int, _ func(int) []facts.Def) bool {
			return n == 0 && (op == bytecode.Aaload || op == bytecode.Arraylength)
		}) {
			return Str{}, false
		}
		ok := true
		if calleeReturns(a, mi, c, []*hierarchy.Method{t},
			func(cmi *method, defs []facts.Def) Str {
				v, filled := a.filledArrayStr(cmi, defs, depth+1)
				ok = ok && filled
				return v
			},
			func(v Str) { out = union(out, v) }) != nil || !ok {
			return Str{}, false
		}
	}
	return out, true
}

// filledArrayStr evaluates the strings stored into the array defs holds, when that
// is one anewarray of mi used only to be stored into and returned.
func (a *Analyzer) filledArrayStr(mi *method, defs []facts.Def, depth int) (Str, bool) {
	if len(defs) != 1 || defs[0].Kind != facts.DefInstr {
		return Str{}, false
	}
	if in, ok := mi.opAt(defs[0].N); !ok || in.Op != bytecode.Anewarray || depth > maxDepth {
		return Str{}, false
	}
	var out Str
	ok := mi.eachArrayUse(defs[0], func(op bytecode.Opcode, n int, operand func(int) []facts.Def) bool {
		switch {
		case op == bytecode.Areturn:
		case op == bytecode.Aastore && n == 0:
			out = union(out, a.defsStr(mi, operand(2), depth))
		default:
			return false
		}
		return true
	})
	return out, ok
}

// eachArrayUse calls use for each use of the array def holds in mi, other than
// being copied to a local or on the stack; false when use returns false.
func (mi *method) eachArrayUse(def facts.Def, use func(op bytecode.Opcode, n int, operand func(int) []facts.Def) bool) bool {
	ok := true
	mi.flow.EachInstr(func(pc int, op bytecode.Opcode, operand func(int) []facts.Def) {
		switch op {
		case bytecode.Dup, bytecode.Astore, bytecode.Astore0, bytecode.Astore1, bytecode.Astore2, bytecode.Astore3:
			return // moves the array; its uses are found at their own instructions
		}
		for n := 0; n < 256 && ok; n++ {
			if slices.Contains(operand(n), def) {
				ok = use(op, n, operand)
			}
		}
	})
	return ok
}

// splitJava splits s around sep as String.split(sep) does for a literal separator:
// trailing empty strings are dropped.
func splitJava(s, sep string) []string {
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 && s == "" {
		return []string{""}
	}
	return parts
}
