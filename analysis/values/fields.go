package values

import (
	"slices"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// fieldWrite is one putfield/putstatic of a field, with the definitions of the
// value it stores.
type fieldWrite struct {
	mi   *method
	defs []facts.Def
}

// followable reports whether every value a field can hold is one its class's nest
// stores in it, so that the analyses may take the union of those stores:
//   - a private field is written by bytecode of its nest only, and Correct-String
//     assumes reflection does not alter private fields whose values reach sites;
//   - a final field (static or not) is written by bytecode of its declaring class
//     only (the JVM rejects other putfield/putstatic instructions, JVMS 6.5), and a
//     reflective write needs setAccessible(true) to suppress Java's access checks,
//     which Encap-Respect (level 2, and so every level above) excludes.
//
// At Correct-JDK a package-private field of a JDK class is followable too: the JDK
// behaves as its code says, and only its package's code stores into it (a package
// of a named module has no classes of other loaders: the class path's loader
// delegates a class of such a package to the module's), except for the instance
// fields of a serializable class that are not transient, which deserialization
// fills from the stream.
//
// Callers check the level: the analyses follow fields from Correct-String on.
func (a *Analyzer) followable(fd *hierarchy.Field) bool {
	return fd.Access&(classfile.AccPrivate|classfile.AccFinal) != 0 || a.jdkPackageField(fd)
}

func (a *Analyzer) jdkPackageField(fd *hierarchy.Field) bool {
	const notPackage = classfile.AccPublic | classfile.AccProtected | classfile.AccPrivate
	if !a.level.ModelsJDK() || fd.Class.Origin != hierarchy.JDK || fd.Access&notPackage != 0 {
		return false
	}
	if fd.Access&(classfile.AccStatic|classfile.AccTransient) != 0 {
		return true
	}
	ser := a.h.Class("java/io/Serializable")
	return ser != nil && !a.h.IsSubtype(fd.Class, ser)
}

// resolveField resolves the field a getfield/getstatic names; nil when the class or
// the field is missing.
func (a *Analyzer) resolveField(fa *facts.FieldAccess) *hierarchy.Field {
	c := a.h.Class(fa.Ref.Class)
	if c == nil {
		return nil
	}
	fd, err := a.h.ResolveField(c, fa.Ref.Name, fa.Ref.Desc)
	if err != nil {
		return nil
	}
	return fd
}

// fieldWrites returns every store into fd found in the methods of its class's nest,
// or its package's for a package-private JDK field (the only code that can store
// into a followable field).
func (a *Analyzer) fieldWrites(fd *hierarchy.Field) []fieldWrite {
	if c, ok := a.writes[fd.ID]; ok {
		a.reuse(c.q)
		return c.v
	}
	writers := a.h.NestClasses(fd.Class)
	if fd.Access&(classfile.AccPrivate|classfile.AccFinal) == 0 {
		// A package's classes, those whose constant pool names the field only:
		// reading the code of every class of java/util for one field costs more
		// than the rest of the question.
		writers = slices.DeleteFunc(slices.Clone(a.h.PackageClasses(fd.Class.Package())), func(c *hierarchy.Class) bool {
			return !a.namesField(c, fd)
		})
	}
	var out []fieldWrite
	for _, w := range writers {
		for _, m := range w.Methods {
			wmi := a.methodInfo(m)
			if wmi == nil {
				continue
			}
			for i := range wmi.f.Fields {
				wf := &wmi.f.Fields[i]
				if !wf.Write || wf.Ref.Name != fd.Name || wf.Ref.Desc != fd.Desc {
					continue
				}
				if rc := a.h.Class(wf.Ref.Class); rc == nil || !a.h.IsSubtype(rc, fd.Class) {
					continue
				}
				ops := wmi.flow.Operands(int(wf.PC))
				if len(ops) == 0 {
					continue
				}
				out = append(out, fieldWrite{wmi, ops[len(ops)-1]})
			}
		}
	}
	a.writes[fd.ID] = cached[[]fieldWrite]{v: out, q: a.origin()}
	return out
}

// namesField reports whether c's constant pool has a Fieldref with fd's name and
// descriptor (any access to fd from c's code goes through one).
func (a *Analyzer) namesField(c *hierarchy.Class, fd *hierarchy.Field) bool {
	f := a.h.File(c)
	if f == nil {
		return false
	}
	p := f.Pool
	for i := 1; i < p.Len(); i++ {
		if p.Tag(uint16(i)) != classfile.TagFieldref {
			continue
		}
		if r := p.Ref(uint16(i)); r.Name == fd.Name && r.Desc == fd.Desc {
			return true
		}
	}
	return false
}

// enterField marks a followable field as being evaluated. A field whose stores
// include a read of the same field (x.f = y.f) is the least solution of its own
// equation: the recursive read adds nothing the other stores do not, so it counts
// as no value (ok false, and the caller returns an empty, complete result). Results
// computed while a read was cut are partial, so the caches (string memo, loaded
// classes) skip them: see cuts.
func (a *Analyzer) enterField(fd *hierarchy.Field) (leave func(), ok bool) {
	if a.fieldBusy[fd.ID] {
		a.cuts++
		return nil, false
	}
	a.fieldBusy[fd.ID] = true
	return func() { delete(a.fieldBusy, fd.ID) }, true
}
