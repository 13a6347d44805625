package values

import (
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// MethodShape describes the Method objects one getMethod/getDeclaredMethod call may
// return: a method of Classes (any class when Classes is not Complete), named one
// of Names (any name when nil), with parameter types Params ("(I)" in descriptor
// form; any when ""). With Field set, it describes the Field objects of a
// getField/getDeclaredField call likewise (FieldAccess): the analyses follow both
// kinds of member the same way.
type MethodShape struct {
	Classes  Classes
	Names    []string
	Params   string
	Declared bool // getDeclaredMethod: any access; getMethod: public methods only
	Field    bool // a getField/getDeclaredField call's
	Evidence string
}

// Methods is what the analyses know about the Method objects reaching an operand.
type Methods struct {
	Shapes []MethodShape
	Known  bool // every definition is a getMethod/getDeclaredMethod call found
	Points []Point
}

// Invocation resolves the Method objects reaching a Method.invoke site at pc. ok
// is true when every Method object comes from getMethod/getDeclaredMethod and each
// shape bounds its targets: by its classes (Correct-Cast on), or, from
// Correct-String on, by its method names when the class is unknown (whatever the
// class, the method found has that name, and so has every override the invocation
// may dispatch to).
func (a *Analyzer) Invocation(m *hierarchy.Method, pc int32) (shapes []MethodShape, points []Point, ok bool) {
	if !a.level.TrustsCasts() {
		return nil, nil, false
	}
	mi := a.methodInfo(m)
	if mi == nil {
		return nil, nil, false
	}
	ms := a.methodDefs(mi, mi.operand(pc, 0), 0)
	if !ms.Known {
		return nil, ms.Points, false
	}
	for _, s := range ms.Shapes {
		if !s.Classes.Complete && (s.Names == nil || !a.level.TrustsStrings()) {
			return nil, append(ms.Points, s.Classes.Points...), false
		}
	}
	return ms.Shapes, ms.Points, true
}

// FieldAccess resolves the Field objects reaching operand 0 of a Field.get*/set*
// site at pc, from Correct-String on: every one comes from getField or
// getDeclaredField on classes the analyses know, with names they know. fields are
// the fields found: getDeclaredField's of the class itself, getField's public
// ones as Class.getField looks them up (the class, its superinterfaces, then its
// superclass). evidence lists the calls.
func (a *Analyzer) FieldAccess(m *hierarchy.Method, pc int32) (fields []*hierarchy.Field, evidence string, points []Point, ok bool) {
	if !a.level.TrustsStrings() {
		return nil, "", nil, false
	}
	mi := a.methodInfo(m)
	if mi == nil {
		return nil, "", nil, false
	}
	fs := a.methodDefs(mi, mi.operand(pc, 0), 0)
	if !fs.Known {
		return nil, "", fs.Points, false
	}
	var ev []string
	for _, s := range fs.Shapes {
		if !s.Field || !s.Classes.Complete || s.Names == nil {
			return nil, "", append(fs.Points, s.Classes.Points...), false
		}
		for _, c := range s.Classes.Set {
			for _, name := range s.Names {
				for _, f := range reflectedFields(c, name, s.Declared) {
					if !slices.Contains(fields, f) {
						fields = append(fields, f)
					}
				}
			}
		}
		if !slices.Contains(ev, s.Evidence) {
			ev = append(ev, s.Evidence)
		}
	}
	return fields, strings.Join(ev, "; "), fs.Points, true
}

// reflectedFields returns the fields named name that getDeclaredField (declared)
// or getField finds in c.
func reflectedFields(c *hierarchy.Class, name string, declared bool) []*hierarchy.Field {
	if declared {
		return namedFields(c, name, false)
	}
	seen := map[*hierarchy.Class]bool{} // a hostile diamond of interfaces is searched once
	var public func(c *hierarchy.Class) []*hierarchy.Field
	public = func(c *hierarchy.Class) []*hierarchy.Field {
		for ; c != nil && !seen[c]; c = c.Super {
			seen[c] = true
			if out := namedFields(c, name, true); len(out) > 0 {
				return out
			}
			for _, in := range c.Interfaces {
				if out := public(in); len(out) > 0 {
					return out
				}
			}
			if c.IsInterface() {
				return nil
			}
		}
		return nil
	}
	return public(c)
}

// namedFields returns the fields c declares named name, public ones only when
// public is set.
func namedFields(c *hierarchy.Class, name string, public bool) []*hierarchy.Field {
	var out []*hierarchy.Field
	for _, f := range c.Fields {
		if f.Name == name && (!public || f.Access&classfile.AccPublic != 0) {
			out = append(out, f)
		}
	}
	return out
}

func (a *Analyzer) methodDefs(mi *method, defs []facts.Def, depth int) Methods {
	out := Methods{Known: len(defs) > 0}
	if len(defs) == 0 {
		out.Points = []Point{a.point(mi, -1, "no reaching definition of the Method object")}
	}
	for _, d := range defs {
		out.join(a.methodDef(mi, d, depth))
	}
	return out
}

func (a *Analyzer) methodDef(mi *method, d facts.Def, depth int) Methods {
	unknown := func(kind string) Methods {
		return Methods{Points: []Point{a.point(mi, int32(d.N), kind)}}
	}
	outside := func(kind string) Methods {
		return Methods{Points: []Point{beyond(a.point(mi, int32(d.N), kind))}}
	}
	if depth > maxDepth {
		a.depthCuts++
		return unknown("Method object from a deep call chain")
	}
	a.reached(depth)
	switch d.Kind {
	case facts.DefParam:
		if fr, defs, ok := a.boundArg(mi, d.N); ok {
			return withFrame(a, fr.up, func() Methods { return a.methodDefs(fr.caller, defs, depth+1) })
		}
		return withFrame(a, nil, func() Methods { return a.methodParam(mi, d.N, depth) })
	case facts.DefInstr:
	default:
		return unknown("unknown Method object")
	}
	pc := int32(d.N)
	if _, ok := mi.casts[pc]; ok {
		return a.methodDefs(mi, mi.operand(pc, 0), depth)
	}
	if in, ok := mi.opAt(int(pc)); ok && in.Op == bytecode.AconstNull {
		return Methods{Known: true} // null: no method along this definition
	}
	if fa, ok := mi.fields[pc]; ok && !fa.Write {
		fd := a.resolveField(fa)
		if fd == nil || !a.level.TrustsPrivateState() || !a.followable(fd) {
			return outside("Method object in field " + fa.Ref.Class + "." + fa.Ref.Name)
		}
		ws := a.fieldWrites(fd)
		if len(ws) == 0 {
			return outside("Method object in field " + fd.Class.Name + "." + fd.Name + ", never written")
		}
		leave, ok := a.enterField(fd)
		if !ok {
			return Methods{Known: true}
		}
		defer leave()
		out := Methods{Known: true}
		for _, w := range ws {
			out.join(withFrame(a, nil, func() Methods { return a.methodDefs(w.mi, w.defs, depth+1) }))
		}
		return out
	}
	c, ok := mi.calls[pc]
	if !ok {
		return outside("Method object computed here")
	}
	if c.Ref.Class == "java/lang/Class" && memberGetter[c.Ref.Name] {
		return Methods{Shapes: []MethodShape{a.getMethodShape(mi, c, depth)}, Known: true}
	}
	callees, ok := a.callTargets(mi, c)
	if !ok {
		return outside("Method object returned by " + shortName(c.Ref.Class) + "." + c.Ref.Name)
	}
	out := Methods{Known: true}
	if callee := calleeReturns(a, mi, c, callees,
		func(cmi *method, defs []facts.Def) Methods { return a.methodDefs(cmi, defs, depth+1) },
		out.join); callee != nil {
		return outside("Method object returned by " + callee.Name)
	}
	return out
}

// join adds v to a union being built.
func (m *Methods) join(v Methods) {
	m.Shapes = append(m.Shapes, v.Shapes...)
	m.Known = m.Known && v.Known
	m.Points = append(m.Points, v.Points...)
}

// methodParam follows a Method-typed parameter of a non-public method to its
// callers, as classParam does for Class objects.
func (a *Analyzer) methodParam(mi *method, n int, depth int) Methods {
	m := mi.m
	if !a.closedCallers(m) || (!m.IsStatic() && n == 0) || !a.level.TrustsPrivateState() {
		return Methods{Points: []Point{beyond(Point{Method: m, PC: 0, Line: mi.f.FirstLine, Kind: "Method object in a parameter of " + m.Name})}}
	}
	callers, ok := a.argSources(m, n)
	if !ok {
		return Methods{Points: []Point{beyond(Point{Method: m, PC: 0, Line: mi.f.FirstLine, Kind: "parameter of " + m.Name + ", which is also called through a method handle or by the JVM"})}}
	}
	out := Methods{Known: true}
	for _, cr := range callers {
		cmi := a.methodInfo(cr.Caller)
		if cmi == nil {
			out.Known = false
			continue
		}
		out.join(a.methodDefs(cmi, cmi.operand(cmi.f.Calls[cr.Call].PC, n), depth+1))
	}
	return out
}

// memberGetter names the methods of Class that return one Method or Field object.
var memberGetter = map[string]bool{"getMethod": true, "getDeclaredMethod": true, "getField": true, "getDeclaredField": true}

// getMethodShape describes a getMethod/getDeclaredMethod call (or getField,
// getDeclaredField): the classes of its receiver, the names its name argument may
// be (from Correct-String on) and a method's parameter types when the Class[]
// argument is a known array of class constants.
func (a *Analyzer) getMethodShape(mi *method, c *facts.Call, depth int) MethodShape {
	s := MethodShape{Declared: strings.HasPrefix(c.Ref.Name, "getDeclared"), Field: strings.HasSuffix(c.Ref.Name, "Field")}
	s.Classes = a.classDefs(mi, mi.operand(c.PC, 0), depth+1)
	var ev []string
	if a.level.TrustsStrings() {
		str := a.defsStr(mi, mi.operand(c.PC, 1), depth+1)
		s.Names = str.Values()
		if s.Names == nil {
			s.Classes.Points = append(s.Classes.Points, str.Points...)
		} else {
			ev = append(ev, c.Ref.Name+`("`+strings.Join(s.Names, `" | "`)+`")`)
		}
		if !s.Field {
			s.Params = a.classArray(mi, c, 2)
		}
		if s.Params != "" {
			ev = append(ev, "parameter types "+s.Params)
		}
	}
	if s.Classes.Complete {
		ev = append(ev, "on "+s.Classes.Evidence)
	} else {
		ev = append(ev, "on any class")
	}
	s.Evidence = strings.Join(ev, " ")
	return s
}

// classArray returns the parameter descriptors "(...)" of operand k of a call when it
// is null, an empty Class[] or a Class[] created in the method, filled with class
// constants at constant indices and used for nothing else; "" otherwise.
func (a *Analyzer) classArray(mi *method, c *facts.Call, k int) string {
	defs := mi.operand(c.PC, k)
	if len(defs) != 1 || defs[0].Kind != facts.DefInstr {
		return ""
	}
	def := defs[0]
	in, ok := mi.opAt(def.N)
	if !ok {
		return ""
	}
	if in.Op == bytecode.AconstNull {
		return "()"
	}
	if t, ok := mi.allocs[int32(def.N)]; !ok || t != "[Ljava/lang/Class;" {
		return ""
	}
	lens := mi.operand(int32(def.N), 0)
	if len(lens) != 1 || lens[0].Kind != facts.DefInstr {
		return ""
	}
	n, ok := mi.intConst(lens[0].N)
	if !ok || n < 0 || n > 32 {
		return ""
	}
	elems := make([]string, n)
	bad := false
	only := func(ds []facts.Def) bool { return len(ds) == 1 && ds[0] == def }
	has := func(ds []facts.Def) bool {
		for _, x := range ds {
			if x == def {
				return true
			}
		}
		return false
	}
	bytecode.Walk(mi.code, func(in bytecode.Instr) error {
		if bad {
			return nil
		}
		ops := mi.flow.Operands(in.PC)
		used := false
		for _, o := range ops {
			used = used || has(o)
		}
		switch {
		case !used || int32(in.PC) == c.PC && only(ops[k]):
		case in.Op == bytecode.Dup || in.Op == bytecode.Astore || in.Op == bytecode.Astore0 || in.Op == bytecode.Astore1 ||
			in.Op == bytecode.Astore2 || in.Op == bytecode.Astore3:
			// moves the array; its uses are found at their own instructions
		case in.Op == bytecode.Aastore && len(ops) == 3 && only(ops[0]) && !has(ops[2]):
			idx, ok1 := mi.intConstDefs(ops[1])
			t, ok2 := a.classConstDesc(mi, ops[2])
			if !ok1 || !ok2 || idx < 0 || idx >= n || elems[idx] != "" {
				bad = true
				return nil
			}
			elems[idx] = t
		default:
			bad = true
		}
		return nil
	})
	if bad {
		return ""
	}
	for _, e := range elems {
		if e == "" {
			return ""
		}
	}
	return "(" + strings.Join(elems, "") + ")"
}

// intConstDefs returns the value of an int whose one definition is a constant.
func (mi *method) intConstDefs(defs []facts.Def) (int32, bool) {
	if len(defs) != 1 || defs[0].Kind != facts.DefInstr {
		return 0, false
	}
	return mi.intConst(defs[0].N)
}

// wrapperTypes maps the wrapper classes whose TYPE field holds a primitive's Class
// (int.class compiles to getstatic java/lang/Integer.TYPE) to its descriptor.
var wrapperTypes = map[string]string{
	"java/lang/Boolean": "Z", "java/lang/Byte": "B", "java/lang/Character": "C",
	"java/lang/Short": "S", "java/lang/Integer": "I", "java/lang/Long": "J",
	"java/lang/Float": "F", "java/lang/Double": "D", "java/lang/Void": "V",
}

// classConstDesc returns the field descriptor of a Class value whose one definition
// is a class literal.
func (a *Analyzer) classConstDesc(mi *method, defs []facts.Def) (string, bool) {
	if len(defs) != 1 || defs[0].Kind != facts.DefInstr {
		return "", false
	}
	pc := int32(defs[0].N)
	if n, ok := mi.cls[pc]; ok {
		if strings.HasPrefix(n, "[") {
			return n, true
		}
		return "L" + n + ";", true
	}
	if fa, ok := mi.fields[pc]; ok && fa.Static && !fa.Write && fa.Ref.Name == "TYPE" && wrapperTypes[fa.Ref.Class] != "" {
		return wrapperTypes[fa.Ref.Class], true
	}
	return "", false
}
