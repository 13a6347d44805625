package hierarchy

// IDsAcross maps the class and method IDs of o, a previous hierarchy, to those of
// h, after an edit that added or removed classes or members and so moved the IDs
// of everything after them: classes by name, methods by class, name and
// descriptor; -1 for those h lacks.
func (h *Hierarchy) IDsAcross(o *Hierarchy) (classes, methods []int32) {
	type key struct{ name, desc string }
	classes, methods = make([]int32, len(o.classes)), make([]int32, len(o.methods))
	for _, c := range o.classes {
		classes[c.ID] = -1
		nc := h.byName[c.Name]
		if nc != nil {
			classes[c.ID] = nc.ID
		}
		var byKey map[key]int32
		for i, om := range c.Methods {
			methods[om.ID] = -1
			switch {
			case nc == nil:
			case i < len(nc.Methods) && nc.Methods[i].Name == om.Name && nc.Methods[i].Desc == om.Desc:
				methods[om.ID] = nc.Methods[i].ID // the members before it are the same
			default:
				if byKey == nil {
					byKey = make(map[key]int32, len(nc.Methods))
					for _, x := range nc.Methods {
						byKey[key{x.Name, x.Desc}] = x.ID
					}
				}
				if id, ok := byKey[key{om.Name, om.Desc}]; ok {
					methods[om.ID] = id
				}
			}
		}
	}
	return classes, methods
}

// SameSupertypes reports whether classes a and b, of two hierarchies, have the same
// superclass and interfaces, by name.
func SameSupertypes(a, b *Class) bool {
	name := func(c *Class) string {
		if c == nil {
			return ""
		}
		return c.Name
	}
	if name(a.Super) != name(b.Super) || len(a.Interfaces) != len(b.Interfaces) {
		return false
	}
	for i := range a.Interfaces {
		if a.Interfaces[i].Name != b.Interfaces[i].Name {
			return false
		}
	}
	return true
}
