package classfile

// Module is the Module attribute of a module-info class (JVMS 4.7.25). Names are as
// the attribute has them: modules by module name, packages and classes in internal
// form ("java/util", "java/util/spi/ToolProvider").
type Module struct {
	Name     string
	Flags    uint16 // ACC_OPEN 0x0020, ACC_SYNTHETIC, ACC_MANDATED
	Version  string // "" when absent
	Requires []ModuleRequire
	Exports  []ModulePackage
	Opens    []ModulePackage
	Uses     []string // service classes
	Provides []ModuleProvide
}

// ModuleRequire is a requires entry.
type ModuleRequire struct {
	Module  string
	Flags   uint16 // ACC_TRANSITIVE 0x0020, ACC_STATIC_PHASE 0x0040, ...
	Version string
}

// ModulePackage is an exports or opens entry; To is nil when the package is exported
// or opened to every module.
type ModulePackage struct {
	Package string
	Flags   uint16
	To      []string
}

// ModuleProvide is a provides entry: `provides Service with With...`.
type ModuleProvide struct {
	Service string
	With    []string
}

// Module decodes the Module attribute, or returns nil, nil when the class has none
// (every class but a module-info). It is decoded on demand because only the
// configuration readers need it, not the parse of every class.
func (f *File) Module() (*Module, error) {
	if f.moduleOff == 0 {
		return nil, nil
	}
	r := &reader{b: f.data[f.moduleOff : f.moduleOff+f.moduleLen], base: int64(f.moduleOff)}
	m := &Module{}
	m.Name = f.moduleAt(r, "module name")
	m.Flags = r.u2()
	m.Version = f.optUTF8At(r, "module version")
	n := r.count(6, "requires")
	if n > 0 {
		m.Requires = make([]ModuleRequire, n)
	}
	for i := range n {
		q := &m.Requires[i]
		q.Module = f.moduleAt(r, "required module")
		q.Flags = r.u2()
		q.Version = f.optUTF8At(r, "required module version")
	}
	m.Exports = f.modulePackages(r, "exports")
	m.Opens = f.modulePackages(r, "opens")
	n = r.count(2, "uses")
	if n > 0 {
		m.Uses = make([]string, n)
	}
	for i := range n {
		m.Uses[i] = f.classAt(r, "used service", false)
	}
	n = r.count(4, "provides")
	if n > 0 {
		m.Provides = make([]ModuleProvide, n)
	}
	for i := range n {
		p := &m.Provides[i]
		p.Service = f.classAt(r, "provided service", false)
		off := r.pos()
		k := r.count(2, "provider classes")
		if r.err == nil && k == 0 {
			// JVMS 4.7.25: with_count must be nonzero.
			r.fail("provides without a provider class", p.Service)
			r.err.Offset = off
		}
		p.With = make([]string, k)
		for j := range k {
			p.With[j] = f.classAt(r, "provider class", false)
		}
	}
	if r.err == nil && r.off != len(r.b) {
		r.fail("attribute Module has trailing bytes", len(r.b)-r.off)
	}
	if r.err != nil {
		return nil, r.err
	}
	return m, nil
}

func (f *File) modulePackages(r *reader, what string) []ModulePackage {
	n := r.count(6, what)
	if n == 0 {
		return nil
	}
	out := make([]ModulePackage, n)
	for i := range n {
		e := &out[i]
		e.Package = f.packageAt(r, what+" package")
		e.Flags = r.u2()
		k := r.count(2, what+" targets")
		if k > 0 {
			e.To = make([]string, k)
		}
		for j := range k {
			e.To[j] = f.moduleAt(r, what+" target module")
		}
	}
	return out
}

// moduleAt, packageAt and optUTF8At read a u2 index that must name a constant of
// their kind, as classAt does for classes.
func (f *File) moduleAt(r *reader, what string) string {
	return f.constAt(r, what, TagModule, false)
}

func (f *File) packageAt(r *reader, what string) string {
	return f.constAt(r, what, TagPackage, false)
}

func (f *File) optUTF8At(r *reader, what string) string {
	return f.constAt(r, what, TagUtf8, true)
}

func (f *File) constAt(r *reader, what string, tag Tag, zeroOK bool) string {
	off := r.pos()
	i := r.u2()
	if r.err != nil || (i == 0 && zeroOK) {
		return ""
	}
	if f.Pool.Tag(i) != tag {
		r.err = &FormatError{Offset: off, Msg: what + " is not a " + tag.String() + " constant", Val: i}
		r.off = len(r.b)
		return ""
	}
	switch tag {
	case TagModule:
		return f.Pool.Module(i)
	case TagPackage:
		return f.Pool.Package(i)
	}
	return f.Pool.Utf8(i)
}
