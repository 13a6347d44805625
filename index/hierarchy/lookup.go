package hierarchy

import (
	"errors"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// Lookup failures, matched with errors.Is against the error of a [LookupError].
var (
	// ErrNoSuchMethod: the JVM throws NoSuchMethodError.
	ErrNoSuchMethod = errors.New("no such method")
	// ErrNoSuchField: the JVM throws NoSuchFieldError.
	ErrNoSuchField = errors.New("no such field")
	// ErrAbstractMethod: selection found an abstract method or no default method
	// (the JVM throws AbstractMethodError).
	ErrAbstractMethod = errors.New("abstract method")
	// ErrIncompatibleClassChange: a Methodref names an interface or an
	// InterfaceMethodref names a class.
	ErrIncompatibleClassChange = errors.New("incompatible class change")
	// ErrIncomplete: nothing was found, but the lookup passed phantom classes that
	// may declare the member. On a complete class path this is a NoSuch*Error.
	ErrIncomplete = errors.New("lookup passed missing classes")
)

// LookupError is the error of a failed resolution.
type LookupError struct {
	Class      *Class // the class the reference names
	Name, Desc string
	Err        error // one of the Err* values
}

func (e *LookupError) Error() string {
	sep := ""
	if len(e.Desc) > 0 && e.Desc[0] != '(' {
		sep = ":"
	}
	return "hierarchy: " + e.Err.Error() + ": " + e.Class.Name + "." + e.Name + sep + e.Desc
}

func (e *LookupError) Unwrap() error { return e.Err }

const (
	accPubProt    = classfile.AccPublic | classfile.AccProtected
	accPrivStatic = classfile.AccPrivate | classfile.AccStatic
)

// ResolveMethod resolves a symbolic method reference to class c: JVMS 5.4.3.3 when the
// reference is a Methodref and 5.4.3.4 when it is an InterfaceMethodref
// (isInterfaceRef). It finds:
//
//   - for a class, the first declaration in c or its superclasses, where in
//     MethodHandle and VarHandle a name declared once as a signature-polymorphic
//     method matches any descriptor;
//   - for an interface, a declaration in c, else a public instance method of
//     java/lang/Object;
//   - otherwise the unique non-abstract maximally-specific superinterface method of c,
//     else some non-private, non-static superinterface method (the JVMS lets the
//     choice be arbitrary; this picks the first maximally-specific one by ID).
//
// The result may be static, private or abstract: the instruction's linking checks
// (and the access check, see [Hierarchy.Accessible]) are the caller's. For an array
// type, resolve in java/lang/Object.
func (h *Hierarchy) ResolveMethod(c *Class, name, desc string, isInterfaceRef bool) (*Method, error) {
	if c.Phantom {
		return nil, &LookupError{c, name, desc, ErrIncomplete}
	}
	if c.IsInterface() != isInterfaceRef {
		return nil, &LookupError{c, name, desc, ErrIncompatibleClassChange}
	}
	hash := h.sigHash(name, desc)
	if !isInterfaceRef {
		for k := c; k != nil; k = k.Super {
			if k == h.methodHandle || k == h.varHandle {
				if m := signaturePolymorphic(k, name); m != nil {
					return m, nil
				}
			}
			if m := k.declared(hash, name, desc); m != nil {
				return m, nil
			}
		}
	} else {
		if m := c.declared(hash, name, desc); m != nil {
			return m, nil
		}
		if o := h.object; o != nil {
			if m := o.declared(hash, name, desc); m != nil && m.Access&classfile.AccPublic != 0 && m.Access&classfile.AccStatic == 0 {
				return m, nil
			}
		}
	}
	var buf [8]*Method
	if max := h.maximal(h.candidates(c, hash, name, desc, buf[:0])); len(max) > 0 {
		if m, _ := uniqueConcrete(max); m != nil {
			return m, nil
		}
		return max[0], nil
	}
	if c.incomplete {
		return nil, &LookupError{c, name, desc, ErrIncomplete}
	}
	return nil, &LookupError{c, name, desc, ErrNoSuchMethod}
}

// signaturePolymorphic implements JVMS 5.4.3.3 step 2a: c declares exactly one method
// named name and it is signature polymorphic.
func signaturePolymorphic(c *Class, name string) *Method {
	var found *Method
	for _, m := range c.Methods {
		if m.Name == name {
			if found != nil {
				return nil
			}
			found = m
		}
	}
	if found != nil && found.IsSignaturePolymorphic() {
		return found
	}
	return nil
}

// Select returns the method that invokevirtual or invokeinterface runs when the
// receiver's class is recv and the instruction resolved to mR (JVMS 5.4.6):
//
//   - a private mR is itself the selected method;
//   - otherwise the first declaration, in recv and up its superclasses, of an instance
//     method that can override mR (JVMS 5.4.5: same name and descriptor, not private,
//     and mR public or protected, or package-private in the same run-time package,
//     or transitively through an intermediate override);
//   - otherwise the maximally-specific superinterface method of recv, if exactly one
//     of them is not abstract (a default method).
//
// Select returns nil where the JVM throws instead; [Hierarchy.Selection] says why.
// Two such cases are left to the caller, because they depend on the instruction
// rather than the hierarchy, and keeping the method errs on the sound side for a
// call graph: invokeinterface throws IllegalAccessError when the selected method is
// neither public nor private, and invokeinterface throws
// IncompatibleClassChangeError when recv does not implement the interface the
// instruction names (mR may be a method of Object). Where one default and one
// abstract method are both maximally specific, Select follows the JVMS (the default
// is selected); HotSpot throws IncompatibleClassChangeError, so the answer is sound
// for both.
//
// Select allocates nothing and takes no locks; its cost is a walk of recv's
// superclass chain comparing signature hashes.
func (h *Hierarchy) Select(recv *Class, mR *Method) *Method {
	m, _ := h.selectMethod(recv, mR)
	return m
}

// Selection is [Hierarchy.Select] with the reason when nothing is selected, as a
// *LookupError wrapping
//
//   - ErrAbstractMethod: the method found is abstract, or no maximally-specific
//     superinterface method is a default method;
//   - ErrIncompatibleClassChange: several default methods are maximally specific, mR
//     is static, recv is an interface, or recv is not a subtype of mR's class;
//   - ErrIncomplete: recv is a phantom.
func (h *Hierarchy) Selection(recv *Class, mR *Method) (*Method, error) {
	m, err := h.selectMethod(recv, mR)
	if m == nil {
		return nil, &LookupError{recv, mR.Name, mR.Desc, err}
	}
	return m, nil
}

func (h *Hierarchy) selectMethod(recv *Class, mR *Method) (*Method, error) {
	if mR.Access&classfile.AccPrivate != 0 {
		return mR, nil
	}
	if recv.Phantom {
		return nil, ErrIncomplete
	}
	if mR.Access&classfile.AccStatic != 0 || recv.IsInterface() || !h.IsSubtype(recv, mR.Class) {
		return nil, ErrIncompatibleClassChange
	}
	hash := mR.Class.mhash[mR.Index]
	pkgPrivate := mR.Access&accPubProt == 0
	if pkgPrivate && !mR.Class.IsInterface() {
		return concrete(h.selectPackagePrivate(recv, mR))
	}
	// A class that declares no overridable method declares no match: k.up skips it,
	// unless mR is a constructor (selected by no JVM instruction, but asked about).
	ctor := strings.HasPrefix(mR.Name, "<")
	for k := recv; k != nil; {
		if m := k.declared(hash, mR.Name, mR.Desc); m != nil && m.Access&accPrivStatic == 0 &&
			(!pkgPrivate || k.pkg == mR.Class.pkg) { // a malformed package-private interface method
			return concrete(m)
		}
		if ctor {
			k = k.Super
		} else {
			k = k.up
		}
	}
	var buf [8]*Method
	return uniqueConcrete(h.maximal(h.candidates(recv, hash, mR.Name, mR.Desc, buf[:0])))
}

// selectPackagePrivate selects for a package-private mR. Whether a declaration can
// override mR depends on the declarations between them (JVMS 5.4.5 lets an override
// of mR in mR's package, made public, be overridden from any package), so it walks
// down from mR's class to recv, tracking which declarations override mR: the lowest
// one is selected. Walking down keeps this linear where the recursive definition
// would be exponential in a hostile chain.
func (h *Hierarchy) selectPackagePrivate(recv *Class, mR *Method) *Method {
	a := mR.Class
	hash := a.mhash[mR.Index]
	if !h.IsSubclass(recv, a) {
		return mR // unreachable: recv is a class and a subtype of a
	}
	sel := mR
	open := false // some override is public or protected: every later declaration overrides
	var buf [4]string
	pkgs := append(buf[:0], a.pkg) // packages of package-private overrides
	var chain [16]*Class
	path := chain[:0] // recv and its superclasses below a, from the bottom
	for k := recv; k != a; k = k.Super {
		path = append(path, k)
	}
	for i := len(path) - 1; i >= 0; i-- {
		k := path[i]
		m := k.declared(hash, mR.Name, mR.Desc)
		if m == nil || m.Access&accPrivStatic != 0 {
			continue
		}
		inPkg := contains(pkgs, k.pkg)
		if !open && !inPkg {
			continue
		}
		sel = m
		if m.Access&accPubProt != 0 {
			open = true
		} else if !inPkg {
			pkgs = append(pkgs, k.pkg)
		}
	}
	return sel
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// SpecialTarget returns the method invokespecial runs when an instruction in class
// caller names class or interface ref and resolved to method resolved (JVMS 6.5
// invokespecial). ACC_SUPER semantics apply: when ref is a proper superclass of caller
// and resolved is not a constructor, the lookup starts at caller's direct superclass.
// The lookup takes the first instance method with resolved's name and descriptor in
// that class and its superclasses (for an interface: the interface itself, then
// public methods of Object), else the unique non-abstract maximally-specific
// superinterface method. It returns nil where the JVM throws: the method found is
// abstract, resolved is static, or a constructor's class is not ref. A nil ref means
// resolved's class.
func (h *Hierarchy) SpecialTarget(caller *Class, resolved *Method, ref *Class) *Method {
	m, _ := h.special(caller, resolved, ref)
	return m
}

func (h *Hierarchy) special(caller *Class, resolved *Method, ref *Class) (*Method, error) {
	if resolved.Access&classfile.AccStatic != 0 {
		return nil, ErrIncompatibleClassChange
	}
	if ref == nil {
		ref = resolved.Class
	}
	if resolved.IsConstructor() {
		if resolved.Class != ref {
			return nil, ErrNoSuchMethod
		}
		return resolved, nil
	}
	c := ref
	if !ref.IsInterface() && ref != caller && caller.Super != nil && h.IsSubclass(caller, ref) {
		c = caller.Super
	}
	hash, name, desc := resolved.Class.mhash[resolved.Index], resolved.Name, resolved.Desc
	if m := c.declared(hash, name, desc); m != nil && m.Access&classfile.AccStatic == 0 {
		return concrete(m)
	}
	if !c.IsInterface() {
		for k := c.Super; k != nil; k = k.Super {
			if m := k.declared(hash, name, desc); m != nil && m.Access&classfile.AccStatic == 0 {
				return concrete(m)
			}
		}
	} else if o := h.object; o != nil {
		if m := o.declared(hash, name, desc); m != nil && m.Access&classfile.AccPublic != 0 && m.Access&classfile.AccStatic == 0 {
			return concrete(m)
		}
	}
	var buf [8]*Method
	return uniqueConcrete(h.maximal(h.candidates(c, hash, name, desc, buf[:0])))
}

// ResolveField resolves a symbolic field reference to class c (JVMS 5.4.3.2): c's own
// fields, then its direct superinterfaces recursively in order, then its superclass
// recursively. The field's class is the one a getstatic or putstatic initialises.
func (h *Hierarchy) ResolveField(c *Class, name, desc string) (*Field, error) {
	r := fieldLookup{name: name, desc: desc}
	if f := r.look(c); f != nil {
		return f, nil
	}
	if c.incomplete {
		return nil, &LookupError{c, name, desc, ErrIncomplete}
	}
	return nil, &LookupError{c, name, desc, ErrNoSuchField}
}

type fieldLookup struct {
	name, desc string
	// seen holds the interfaces already searched: an interface reached again along
	// another path has no field the first search missed, and skipping it keeps a
	// hostile diamond-shaped interface graph from making the search exponential.
	seen map[int32]bool
}

func (r *fieldLookup) look(c *Class) *Field {
	for ; c != nil; c = c.Super {
		if f := c.Field(r.name, r.desc); f != nil {
			return f
		}
		for _, in := range c.Interfaces {
			if r.seen[in.ID] {
				continue
			}
			if r.seen == nil {
				r.seen = make(map[int32]bool)
			}
			r.seen[in.ID] = true
			if f := r.look(in); f != nil {
				return f
			}
		}
	}
	return nil
}

// candidates appends to buf the superinterface methods of c with the signature that
// are neither private nor static.
func (h *Hierarchy) candidates(c *Class, hash uint64, name, desc string, buf []*Method) []*Method {
	if c.manyIfaces {
		h.superinterfaces(c, func(in *Class) bool {
			if m := in.declared(hash, name, desc); m != nil && m.Access&accPrivStatic == 0 {
				buf = append(buf, m)
			}
			return true
		})
		return buf
	}
	for _, id := range c.ifaces {
		if m := h.classes[id].declared(hash, name, desc); m != nil && m.Access&accPrivStatic == 0 {
			buf = append(buf, m)
		}
	}
	return buf
}

// maximal filters candidates in place to the maximally-specific ones (JVMS 5.4.3.3):
// those whose interface has no subinterface declaring another candidate.
func (h *Hierarchy) maximal(cands []*Method) []*Method {
	if len(cands) < 2 {
		return cands
	}
	out := cands[:0]
	for i, m := range cands {
		shadowed := false
		for j, n := range cands {
			if j != i && n.Class != m.Class && h.IsSubtype(n.Class, m.Class) {
				shadowed = true
				break
			}
		}
		if !shadowed {
			// Filtering in place overwrites only shadowed entries, so every maximally
			// specific candidate stays visible to the inner loop, and a candidate is
			// shadowed exactly when a maximally specific one is below it.
			out = append(out, m)
		}
	}
	return out
}

// uniqueConcrete returns the only non-abstract method of ms, or why there is none.
func uniqueConcrete(ms []*Method) (*Method, error) {
	var found *Method
	for _, m := range ms {
		if m.Access&classfile.AccAbstract == 0 {
			if found != nil {
				return nil, ErrIncompatibleClassChange
			}
			found = m
		}
	}
	if found == nil {
		return nil, ErrAbstractMethod
	}
	return found, nil
}

func concrete(m *Method) (*Method, error) {
	if m.Access&classfile.AccAbstract != 0 {
		return nil, ErrAbstractMethod
	}
	return m, nil
}
