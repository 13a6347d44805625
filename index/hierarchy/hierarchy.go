package hierarchy

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// Origin says where a class came from. It mirrors the class path's notion without
// importing it, so the hierarchy can be built from any source of parsed classes.
type Origin uint8

// Origins.
const (
	Application Origin = iota
	Library
	JDK
)

func (o Origin) String() string {
	switch o {
	case Application:
		return "application"
	case Library:
		return "library"
	case JDK:
		return "jdk"
	}
	return fmt.Sprintf("Origin(%d)", o)
}

// Input is one parsed class to put into the hierarchy.
type Input struct {
	File   *classfile.File
	Origin Origin
}

// Nesting is how a class is declared relative to other classes, as recorded by its own
// InnerClasses entry and its EnclosingMethod attribute (JVMS 4.7.6, 4.7.7).
type Nesting uint8

// Nesting kinds.
const (
	TopLevel  Nesting = iota
	Member            // declared in the body of Outer
	Local             // declared in a block of Outer (in EnclosingMethod when non-nil)
	Anonymous         // an anonymous class expression in Outer
)

func (n Nesting) String() string {
	switch n {
	case TopLevel:
		return "top-level"
	case Member:
		return "member"
	case Local:
		return "local"
	case Anonymous:
		return "anonymous"
	}
	return fmt.Sprintf("Nesting(%d)", n)
}

// Class is a class or interface of the hierarchy, or a phantom standing for a missing
// supertype. All pointers are into the same Hierarchy, and nothing may be modified.
type Class struct {
	ID     int32 // dense, 0..len(Classes())-1: index bitsets with it
	Name   string
	Access uint16 // class-file access flags; see Phantom for phantoms
	Origin Origin

	// Super is nil only for java/lang/Object (and for every root when no class names
	// Object). An interface's Super is java/lang/Object, as in its class file, but
	// method lookup in interfaces never walks it.
	Super      *Class
	Interfaces []*Class // direct superinterfaces
	// Subtypes are the direct subclasses, subinterfaces and implementing classes,
	// in ID order. Interfaces are direct subtypes of java/lang/Object.
	Subtypes []*Class

	Methods []*Method // declared methods, in class-file order
	Fields  []*Field  // declared fields, in class-file order

	// Phantom marks a class that some class names as its supertype but that is not
	// in the input. Its Access is ACC_PUBLIC|ACC_INTERFACE|ACC_ABSTRACT when it was
	// first referenced as an interface and ACC_PUBLIC otherwise, its Super is
	// java/lang/Object, its Origin that of its first referrer, and it declares nothing.
	Phantom bool
	// Cyclic marks a class on a supertype cycle. The JVM would refuse to load it
	// (ClassCircularityError); here the edge closing the cycle is dropped, a
	// superclass edge being replaced by java/lang/Object.
	Cyclic bool

	// Nesting, from the class's own InnerClasses entry and EnclosingMethod attribute.
	Nesting         Nesting
	Outer           *Class  // the immediately enclosing class; nil for top-level classes or when it is missing
	EnclosingMethod *Method // for local and anonymous classes declared in a method or constructor
	InnerAccess     uint16  // inner_class_access_flags: the source-level modifiers of a nested class
	// NestHost is the JVM nest host (JVMS 5.4.4): the class named by a valid NestHost
	// attribute, otherwise the class itself. Pre-Java-11 class files are their own
	// hosts; the source-level nest used by level 2 is [Hierarchy.SameNest].
	NestHost *Class

	pkg        string   // package prefix of Name
	depth      int32    // superclass chain length: 0 for java/lang/Object and roots
	supers     []*Class // supers[d] is the ancestor at depth d, for d < displayLen; the class itself included
	ifaces     []int32  // IDs of all superinterfaces, transitive, sorted; shared when possible
	manyIfaces bool     // ifaces would exceed maxIfaces: search the graph instead
	mhash      []uint64 // signature hashes, parallel to Methods
	sigs       uint64   // Bloom filter of mhash: bit hash>>58 is set for each method
	nest       int32    // source-level nest: the top-level class's ID, or an ID past all classes for a missing one
	incomplete bool     // a phantom is among the class and its supertypes
	// overridable: the class declares an instance method that is neither private nor
	// a constructor, the only kind Select can choose. up is the nearest proper
	// superclass that does, so that selection skips a chain of classes declaring
	// only constructors (a generated or hostile chain 20,000 deep) in one step.
	overridable bool
	up          *Class
}

// Method is a method declared by a class.
type Method struct {
	ID     int32 // dense, 0..len(Methods())-1
	Class  *Class
	Name   string
	Desc   string
	Access uint16
	Index  int32 // index into the class file's methods and Class.Methods
}

// Field is a field declared by a class.
type Field struct {
	ID     int32 // dense, 0..len(Fields())-1
	Class  *Class
	Name   string
	Desc   string
	Access uint16
	Index  int32 // index into the class file's fields and Class.Fields
}

// Hierarchy is the linked, immutable hierarchy. It is safe for concurrent use.
type Hierarchy struct {
	classes  []*Class
	files    []*classfile.File // by class ID; nil for phantoms
	methods  []*Method
	fields   []*Field
	byName   map[string]*Class
	problems []Problem
	seed     maphash.Seed

	object, methodHandle, varHandle *Class

	nests [][]*Class // by source-level nest ID

	// packages is built on first use: few callers need it, and New should not pay
	// for hashing every class name a second time.
	packagesOnce sync.Once
	packages     map[string][]*Class
}

// ProblemKind classifies a [Problem].
type ProblemKind uint8

// Problem kinds.
const (
	Duplicate    ProblemKind = iota // a class defined twice; the first definition wins
	Missing                         // a supertype is not in the input; a phantom stands in for it
	Cycle                           // a supertype cycle; the closing edge was dropped
	BadSupertype                    // a class extends an interface or implements a class (the JVM throws IncompatibleClassChangeError)
	BadNestHost                     // a NestHost attribute that fails JVMS 5.4.4 validation; the class is its own host
	BadNesting                      // InnerClasses/EnclosingMethod information that is cyclic or self-referential
)

var problemKindNames = [...]string{
	Duplicate: "duplicate class", Missing: "missing class", Cycle: "supertype cycle",
	BadSupertype: "bad supertype", BadNestHost: "bad nest host", BadNesting: "bad nesting",
}

func (k ProblemKind) String() string {
	if int(k) < len(problemKindNames) {
		return problemKindNames[k]
	}
	return fmt.Sprintf("ProblemKind(%d)", k)
}

// Problem is something wrong with the input that [New] repaired.
type Problem struct {
	Kind  ProblemKind
	Class string // the class the problem is about
	Msg   string
}

func (p Problem) String() string { return p.Kind.String() + ": " + p.Msg }

// Class returns the class or phantom named name (an internal name such as
// "java/lang/String"), or nil. Classes missing from the input are only phantoms when
// some class names them as a supertype.
func (h *Hierarchy) Class(name string) *Class { return h.byName[name] }

// Classes returns all classes and phantoms, indexed by ID. The slice must not be modified.
func (h *Hierarchy) Classes() []*Class { return h.classes }

// Methods returns all declared methods, indexed by ID. The slice must not be modified.
func (h *Hierarchy) Methods() []*Method { return h.methods }

// Fields returns all declared fields, indexed by ID. The slice must not be modified.
func (h *Hierarchy) Fields() []*Field { return h.fields }

// Problems returns the repairs New made, in the order it found them.
func (h *Hierarchy) Problems() []Problem { return h.problems }

// Object returns java/lang/Object (a phantom when missing from the input), or nil
// when no class refers to it.
func (h *Hierarchy) Object() *Class { return h.object }

// Package returns the package part of an internal class name: "java/lang" for
// "java/lang/String", "" for a class in the unnamed package.
func Package(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return ""
}

// Package returns the package of the class.
func (c *Class) Package() string { return c.pkg }

func (c *Class) String() string { return c.Name }

// IsInterface reports whether c is an interface (annotation types included).
func (c *Class) IsInterface() bool { return c.Access&classfile.AccInterface != 0 }

// IsAbstract reports whether c is abstract; interfaces are.
func (c *Class) IsAbstract() bool { return c.Access&classfile.AccAbstract != 0 }

// IsPublic reports whether c is declared public.
func (c *Class) IsPublic() bool { return c.Access&classfile.AccPublic != 0 }

// IsFinal reports whether c is final.
func (c *Class) IsFinal() bool { return c.Access&classfile.AccFinal != 0 }

// Incomplete reports whether c or one of its supertypes is a phantom, so that what c
// inherits is only partly known.
func (c *Class) Incomplete() bool { return c.incomplete }

// Depth returns the length of c's superclass chain: 0 for java/lang/Object.
func (c *Class) Depth() int { return int(c.depth) }

// Method returns the method c declares with the given name and descriptor, or nil.
// Should a malformed class declare the signature twice, every lookup sees the first.
func (c *Class) Method(name, desc string) *Method {
	for _, m := range c.Methods {
		if m.Name == name && m.Desc == desc {
			return m
		}
	}
	return nil
}

// Field returns the field c declares with the given name and descriptor, or nil.
func (c *Class) Field(name, desc string) *Field {
	for _, f := range c.Fields {
		if f.Name == name && f.Desc == desc {
			return f
		}
	}
	return nil
}

// declared is Method with a precomputed signature hash. Most classes on a
// superclass walk do not declare the method, and the Bloom filter in the Class
// (already in cache for the walk) rules them out without touching their hashes.
func (c *Class) declared(hash uint64, name, desc string) *Method {
	if c.sigs&(1<<(hash>>58)) == 0 {
		return nil
	}
	for i, hv := range c.mhash {
		if hv == hash {
			if m := c.Methods[i]; m.Name == name && m.Desc == desc {
				return m
			}
		}
	}
	return nil
}

func (m *Method) String() string { return m.Class.Name + "." + m.Name + m.Desc }

// File returns the class file c was read from; nil for phantoms. It belongs to the
// hierarchy, not to c: hierarchies made by WithBodies share their classes but not
// their class files.
func (h *Hierarchy) File(c *Class) *classfile.File { return h.files[c.ID] }

// Info returns the class-file method_info of m.
func (h *Hierarchy) Info(m *Method) *classfile.Method { return &h.files[m.Class.ID].Methods[m.Index] }

// IsStatic and the following report access flags of m.
func (m *Method) IsStatic() bool    { return m.Access&classfile.AccStatic != 0 }
func (m *Method) IsPrivate() bool   { return m.Access&classfile.AccPrivate != 0 }
func (m *Method) IsPublic() bool    { return m.Access&classfile.AccPublic != 0 }
func (m *Method) IsProtected() bool { return m.Access&classfile.AccProtected != 0 }
func (m *Method) IsAbstract() bool  { return m.Access&classfile.AccAbstract != 0 }
func (m *Method) IsNative() bool    { return m.Access&classfile.AccNative != 0 }
func (m *Method) IsFinal() bool     { return m.Access&classfile.AccFinal != 0 }

// IsConstructor reports whether m is an instance initialisation method (<init>).
func (m *Method) IsConstructor() bool { return m.Name == "<init>" }

// IsClassInitializer reports whether m is a class initialisation method (<clinit>).
func (m *Method) IsClassInitializer() bool { return m.Name == "<clinit>" }

// IsSignaturePolymorphic reports whether m is signature polymorphic (JVMS 2.9.3):
// declared in java/lang/invoke/MethodHandle or VarHandle with a single Object[]
// parameter and ACC_VARARGS and ACC_NATIVE set. A call to such a method may use any
// descriptor, and invokevirtual does not select an override for it.
func (m *Method) IsSignaturePolymorphic() bool {
	const flags = classfile.AccVarargs | classfile.AccNative
	if m.Access&flags != flags || !strings.HasPrefix(m.Desc, "([Ljava/lang/Object;)") {
		return false
	}
	n := m.Class.Name
	return n == "java/lang/invoke/MethodHandle" || n == "java/lang/invoke/VarHandle"
}

// IsSignaturePolymorphic reports m.IsSignaturePolymorphic(), for callers that think
// of it as a property of the hierarchy.
func (h *Hierarchy) IsSignaturePolymorphic(m *Method) bool { return m.IsSignaturePolymorphic() }

func (f *Field) String() string { return f.Class.Name + "." + f.Name + ":" + f.Desc }

// IsStatic reports whether f is static.
func (f *Field) IsStatic() bool { return f.Access&classfile.AccStatic != 0 }

// sigHash hashes a method signature. Two string hashes are cheaper than interning a
// quarter of a million signatures in a map, and the hash only filters: matches are
// confirmed by comparing the strings.
func (h *Hierarchy) sigHash(name, desc string) uint64 {
	return maphash.String(h.seed, name)*0x9e3779b97f4a7c15 ^ maphash.String(h.seed, desc)
}

// IsSubtype reports whether sub is super or a subclass, subinterface or
// implementation of super (JLS 4.10 for class and interface types).
func (h *Hierarchy) IsSubtype(sub, super *Class) bool {
	if sub == super || h.IsSubclass(sub, super) {
		return true
	}
	if !sub.manyIfaces {
		_, ok := slices.BinarySearch(sub.ifaces, super.ID)
		return ok
	}
	found := false
	h.superinterfaces(sub, func(in *Class) bool {
		found = in == super
		return !found
	})
	return found
}

// IsSubclass reports whether sub is super or a subclass of super, following
// superclasses only.
func (h *Hierarchy) IsSubclass(sub, super *Class) bool {
	d := int(super.depth)
	if d < len(sub.supers) {
		return sub.supers[d] == super
	}
	if d > int(sub.depth) {
		return false
	}
	x := sub
	for int(x.depth) > d { // only below a hostile chain deeper than displayLen
		x = x.Super
	}
	return x == super
}

// Supertypes calls fn for c, its superclasses from the nearest up, then all its
// superinterfaces, each once, until fn returns false.
func (h *Hierarchy) Supertypes(c *Class, fn func(*Class) bool) {
	for k := c; k != nil; k = k.Super {
		if !fn(k) {
			return
		}
	}
	h.superinterfaces(c, fn)
}

// superinterfaces calls fn for each superinterface of c, transitively (those of its
// superclasses included), in ID order, until fn returns false.
func (h *Hierarchy) superinterfaces(c *Class, fn func(*Class) bool) {
	if !c.manyIfaces {
		for _, id := range c.ifaces {
			if !fn(h.classes[id]) {
				return
			}
		}
		return
	}
	var stack []*Class
	for k := c; k != nil; k = k.Super {
		stack = append(stack, k.Interfaces...)
		if k.IsInterface() {
			break // an interface's superclass contributes no interfaces
		}
	}
	seen := make([]uint64, (len(h.classes)+63)/64)
	var found []*Class
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x.ID/64]&(1<<(x.ID%64)) != 0 {
			continue
		}
		seen[x.ID/64] |= 1 << (x.ID % 64)
		found = append(found, x)
		stack = append(stack, x.Interfaces...)
	}
	slices.SortFunc(found, func(a, b *Class) int { return int(a.ID - b.ID) })
	for _, x := range found {
		if !fn(x) {
			return
		}
	}
}

// AllSubtypes calls fn for c and all its transitive subtypes, each once, in
// depth-first preorder, until fn returns false.
func (h *Hierarchy) AllSubtypes(c *Class, fn func(*Class) bool) {
	if !c.IsInterface() && c != h.object {
		// Below a class other than Object there are only classes, and each has one
		// superclass: a tree, so no visited set is needed.
		h.classTree(c, fn)
		return
	}
	seen := make([]uint64, (len(h.classes)+63)/64)
	stack := []*Class{c}
	seen[c.ID/64] |= 1 << (c.ID % 64)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !fn(x) {
			return
		}
		for i := len(x.Subtypes) - 1; i >= 0; i-- {
			s := x.Subtypes[i]
			if seen[s.ID/64]&(1<<(s.ID%64)) == 0 {
				seen[s.ID/64] |= 1 << (s.ID % 64)
				stack = append(stack, s)
			}
		}
	}
}

func (h *Hierarchy) classTree(c *Class, yield func(*Class) bool) bool {
	if !yield(c) {
		return false
	}
	for _, s := range c.Subtypes {
		if !h.classTree(s, yield) {
			return false
		}
	}
	return true
}

// SamePackage reports whether a and b are in the same run-time package. Under
// well-behaved class loaders that is the same package name.
func SamePackage(a, b *Class) bool { return a.pkg == b.pkg }

// SameNest reports whether a and b are declared within the body of the same top-level
// class (JLS 6.6.1: where private members are accessible). It is derived from
// InnerClasses and EnclosingMethod, so it also holds for class files older than the
// JVM's NestHost attribute, and for classes whose outer classes are missing.
func (h *Hierarchy) SameNest(a, b *Class) bool { return a.nest == b.nest }

// NestClasses returns the classes of c's source-level nest (see [Hierarchy.SameNest]),
// c included unless it is a phantom, in ID order. The slice must not be modified.
func (h *Hierarchy) NestClasses(c *Class) []*Class { return h.nests[c.nest] }

// PackageClasses returns the classes of package pkg ("java/lang"; "" for the unnamed
// package), phantoms excluded, in ID order. The slice must not be modified.
func (h *Hierarchy) PackageClasses(pkg string) []*Class {
	h.packagesOnce.Do(func() {
		h.packages = make(map[string][]*Class)
		for _, c := range h.classes {
			if !c.Phantom {
				h.packages[c.pkg] = append(h.packages[c.pkg], c)
			}
		}
	})
	return h.packages[pkg]
}

// TopLevel returns the outermost class enclosing c (c itself when it is top-level),
// or nil when that class is missing from the input or the nesting information is
// broken (see [BadNesting]).
func (h *Hierarchy) TopLevel(c *Class) *Class {
	for c.Outer != nil {
		c = c.Outer
	}
	if c.Nesting != TopLevel {
		return nil
	}
	return c
}

// SameClasses reports whether h and o share their classes, methods and fields, as
// a hierarchy and those WithBodies makes of it do: what depends on the hierarchy
// alone is the same for both.
func (h *Hierarchy) SameClasses(o *Hierarchy) bool {
	return len(h.classes) == len(o.classes) && len(h.methods) == len(o.methods) &&
		(len(h.classes) == 0 || &h.classes[0] == &o.classes[0]) && (len(h.methods) == 0 || &h.methods[0] == &o.methods[0])
}

// WithBodies returns a hierarchy of the same classes as h, sharing its classes,
// members and their IDs, in which the classes named by files are read from those
// class files instead. Only method bodies may differ: it returns nil when a file is
// not of a class of h or declares a different header (classfile.SameHeader), which
// needs New.
func (h *Hierarchy) WithBodies(files []*classfile.File) *Hierarchy {
	n := &Hierarchy{classes: h.classes, files: slices.Clone(h.files), methods: h.methods, fields: h.fields,
		byName: h.byName, problems: h.problems, seed: h.seed,
		object: h.object, methodHandle: h.methodHandle, varHandle: h.varHandle, nests: h.nests}
	for _, f := range files {
		c := h.byName[f.Name]
		if c == nil || c.Phantom || !classfile.SameHeader(h.files[c.ID], f) {
			return nil
		}
		n.files[c.ID] = f
	}
	return n
}
