package classfile

import (
	"fmt"
	"slices"
)

// SameHeader reports whether two class files declare the same class in every respect
// but their method bodies (Code attributes and the bootstrap methods their
// invokedynamic instructions use): version, flags, names of the class, its
// supertypes and its nesting, members with their flags, signatures and exceptions,
// constant values of fields, record components and the source file name. Classes
// with the same header link into the same hierarchy.
func SameHeader(a, b *File) bool {
	return a.Major == b.Major && a.Minor == b.Minor && a.Access == b.Access &&
		a.Name == b.Name && a.Super == b.Super && slices.Equal(a.Interfaces, b.Interfaces) &&
		a.SourceFile == b.SourceFile && a.Signature == b.Signature &&
		slices.Equal(a.InnerClasses, b.InnerClasses) &&
		(a.EnclosingMethod == nil) == (b.EnclosingMethod == nil) &&
		(a.EnclosingMethod == nil || *a.EnclosingMethod == *b.EnclosingMethod) &&
		a.NestHost == b.NestHost && slices.Equal(a.NestMembers, b.NestMembers) &&
		(a.Record == nil) == (b.Record == nil) && slices.Equal(a.Record, b.Record) &&
		slices.Equal(a.PermittedSubclasses, b.PermittedSubclasses) && a.Deprecated == b.Deprecated &&
		slices.EqualFunc(a.Fields, b.Fields, func(x, y Field) bool {
			return x.Access == y.Access && x.Name == y.Name && x.Desc == y.Desc && x.Signature == y.Signature &&
				constant(a.Pool, x.ConstantValue) == constant(b.Pool, y.ConstantValue)
		}) &&
		slices.EqualFunc(a.Methods, b.Methods, func(x, y Method) bool {
			return x.Access == y.Access && x.Name == y.Name && x.Desc == y.Desc && x.Signature() == y.Signature() &&
				x.codeAttr == y.codeAttr && slices.Equal(x.Exceptions(), y.Exceptions()) && slices.Equal(x.Parameters(), y.Parameters())
		})
}

// constant renders a ConstantValue constant (0 for none) for comparison across pools.
func constant(p *Pool, i uint16) string {
	if i == 0 {
		return ""
	}
	switch t := p.Tag(i); t {
	case TagString:
		return "s" + p.String(i)
	case TagInteger:
		return fmt.Sprint("i", p.Int(i))
	case TagFloat:
		return fmt.Sprint("f", p.Float(i))
	case TagLong:
		return fmt.Sprint("j", p.Long(i))
	case TagDouble:
		return fmt.Sprint("d", p.Double(i))
	default:
		return fmt.Sprint("?", t, i)
	}
}
