package hierarchy

import "github.com/jcg-lsp/jcg-lsp/index/classfile"

// Accessible reports whether method m is accessible to class d (JVMS 5.4.4), as the
// JVM checks when d's instruction resolves a reference to m:
//
//   - m is public;
//   - m is protected or package-private and declared in d's run-time package;
//   - m is protected, d is m's class or a subclass of it, and, when m is not static,
//     ref (the class named by the symbolic reference) is d, a subclass or a
//     superclass of d; a nil ref skips this last condition;
//   - m is private and declared in d or in a class of d's nest (NestHost/NestMembers,
//     Java 11+).
//
// Class accessibility ([Hierarchy.ClassAccessible]) is a separate check.
func (h *Hierarchy) Accessible(d *Class, m *Method, ref *Class) bool {
	return h.memberAccessible(d, m.Class, m.Access, ref)
}

// FieldAccessible is [Hierarchy.Accessible] for fields.
func (h *Hierarchy) FieldAccessible(d *Class, f *Field, ref *Class) bool {
	return h.memberAccessible(d, f.Class, f.Access, ref)
}

// ClassAccessible reports whether class c is accessible to class d (JVMS 5.4.4): c is
// public or in d's run-time package. Module exports are not modelled.
func (h *Hierarchy) ClassAccessible(d, c *Class) bool {
	return c.Access&classfile.AccPublic != 0 || SamePackage(c, d)
}

func (h *Hierarchy) memberAccessible(d, decl *Class, acc uint16, ref *Class) bool {
	switch {
	case acc&classfile.AccPublic != 0:
		return true
	case acc&classfile.AccPrivate != 0:
		return d.NestHost == decl.NestHost
	case SamePackage(d, decl):
		return true
	case acc&classfile.AccProtected != 0:
		if !h.IsSubclass(d, decl) {
			return false
		}
		return acc&classfile.AccStatic != 0 || ref == nil || h.IsSubclass(ref, d) || h.IsSubclass(d, ref)
	}
	return false
}

// EncapsulationSafe reports whether reflective invocation from a site in class from may
// call method m under assumption level 2, Encap-Respect (docs/assumption-levels.md):
//
//	any public method; any package-private method of C's package; any method of C's
//	nest (including members of nested member classes); if C is nested, also the
//	protected and private methods of its outer classes, including those they inherit;
//	methods of local classes of the enclosing method. (protected methods of other
//	packages are visible only through subclassing: follow the JLS rule.)
//
// C's nest is every class declared within the body of C's top-level class
// ([Hierarchy.SameNest]), which is where the JLS (6.6.1) makes private members
// accessible; it contains the outer classes and the local classes of the enclosing
// method. Protected methods are accessible in their package, like package-private
// ones, and from other packages when C or one of its outer classes is a subclass of
// the declaring class (JLS 6.6.2; the qualifier-type restriction of 6.6.2.1 cannot be
// checked for a reflective call and is not applied). Whether m is a constructor or
// initialiser is not looked at: see [Hierarchy.EncapsulationSafeConstructor].
func (h *Hierarchy) EncapsulationSafe(from *Class, m *Method) bool {
	acc := m.Access
	switch {
	case acc&classfile.AccPublic != 0 || h.SameNest(from, m.Class):
		return true
	case acc&classfile.AccPrivate != 0:
		return false
	case SamePackage(from, m.Class):
		return true
	case acc&classfile.AccProtected != 0:
		// Outer is acyclic: New breaks cycles of enclosing classes.
		for c := from; c != nil; c = c.Outer {
			if h.IsSubclass(c, m.Class) {
				return true
			}
		}
	}
	return false
}

// EncapsulationSafeConstructor reports whether reflective instantiation from a site in
// class from may run constructor m under assumption level 2 (docs/assumption-levels.md):
//
//	any public constructor; any package-private constructor of C's package; any
//	constructor declared in C's surrounding class nest (C itself, its member classes,
//	its outer classes); inside a local class, constructors of the other local classes
//	of the same enclosing method.
//
// The nest is [Hierarchy.SameNest], the body of C's top-level class, as for methods:
// the JLS lets C reach the private constructors of every class declared there,
// siblings included, so a narrower set would not be sound under the level's
// assumption. Protected constructors count as package-private: from another package
// the JLS allows them only in super(...) calls and anonymous class bodies (6.6.2.2),
// and Constructor.newInstance refuses them.
func (h *Hierarchy) EncapsulationSafeConstructor(from *Class, m *Method) bool {
	acc := m.Access
	return acc&classfile.AccPublic != 0 || h.SameNest(from, m.Class) ||
		(acc&classfile.AccPrivate == 0 && SamePackage(from, m.Class))
}
