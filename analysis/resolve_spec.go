package analysis

import (
	"fmt"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// specResolver gives a dynamic site the targets of the user's specification entry for
// it, at every level: the site's status is Specified.
type specResolver struct{}

func (specResolver) appliesAt(callgraph.Level) bool { return true }

// specTargets are an entry's targets resolved against the hierarchy.
type specTargets struct {
	entry   spec.Entry
	classes []*hierarchy.Class
	methods []*hierarchy.Method
}

// specIndex maps sites to their entries: by exact (method, pc) for entries with an
// ordinal, by (method, line) for entries naming every dynamic site of a line.
type specIndex struct {
	byPC   map[[2]int32]*specTargets
	byLine map[[2]int32]*specTargets
}

// specIndex resolves the run's specification entries once; problems (unknown class,
// method or line) are reported on the graph with the entry's file position.
func (s *solver) specIndex() *specIndex {
	if s.api.spec != nil {
		return s.api.spec
	}
	ix := &specIndex{byPC: map[[2]int32]*specTargets{}, byLine: map[[2]int32]*specTargets{}}
	s.api.spec = ix
	f := s.opts.Spec
	if f == nil {
		return ix
	}
	bad := func(e spec.Entry, format string, args ...any) {
		s.problems = append(s.problems, fmt.Sprintf("%s:%d:1: %s", f.Name, e.Line, fmt.Sprintf(format, args...)))
	}
	for _, e := range f.Entries {
		c := s.h.Class(strings.ReplaceAll(e.Site.Class, ".", "/"))
		if c == nil || c.Phantom {
			bad(e, "unknown class %s", e.Site.Class)
			continue
		}
		t := &specTargets{entry: e}
		ok := true
		for _, tg := range e.Targets {
			tc := s.h.Class(strings.ReplaceAll(tg.Class, ".", "/"))
			if tc == nil || tc.Phantom {
				bad(e, "unknown target class %s", tg.Class)
				ok = false
				break
			}
			if tg.Member == "" {
				t.classes = append(t.classes, tc)
				continue
			}
			n := len(t.methods)
			for _, m := range tc.Methods {
				if m.Name == tg.Member && (tg.Desc == "" || m.Desc == tg.Desc) {
					t.methods = append(t.methods, m)
				}
			}
			if len(t.methods) == n {
				bad(e, "no method %s%s in %s", tg.Member, tg.Desc, tg.Class)
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		found := false
		for _, m := range c.Methods {
			if m.Name != e.Site.Method || (e.Site.Desc != "" && m.Desc != e.Site.Desc) {
				continue
			}
			fs := s.a.prog.Facts(m)
			if fs == nil {
				continue
			}
			n := 0
			for _, call := range fs.Calls {
				if int(call.Line) != e.Site.Line {
					continue
				}
				n++
				if e.Site.Ordinal == 0 {
					ix.byLine[[2]int32{m.ID, call.Line}] = t
					found = true
					break
				}
				if n == e.Site.Ordinal {
					ix.byPC[[2]int32{m.ID, call.PC}] = t
					found = true
					break
				}
			}
			if !found && e.Site.PC >= 0 {
				for _, call := range fs.Calls {
					if int(call.PC) == e.Site.PC {
						ix.byPC[[2]int32{m.ID, call.PC}] = t
						found = true
					}
				}
			}
		}
		if !found {
			bad(e, "no call at line %d of %s.%s%s", e.Site.Line, e.Site.Class, e.Site.Method, e.Site.Desc)
		}
	}
	return ix
}

func (specResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	if s.opts.Spec == nil || d.at.caller == nil {
		return siteResult{}
	}
	ix := s.specIndex()
	t := ix.byPC[[2]int32{d.at.caller.ID, d.at.pc}]
	if t == nil {
		t = ix.byLine[[2]int32{d.at.caller.ID, d.at.line}]
	}
	if t == nil {
		return siteResult{}
	}
	res := siteResult{status: callgraph.Specified,
		evidence: fmt.Sprintf("specification %s:%d", s.opts.Spec.Name, t.entry.Line)}
	switch d.feature {
	case callgraph.FeatLoading:
		if d.inits {
			res.inits = t.classes
		}
	case callgraph.FeatInstantiation:
		for _, c := range t.classes {
			res.allocs = append(res.allocs, c)
			res.inits = append(res.inits, c)
			for _, m := range c.Methods {
				if m.Name == "<init>" && (!d.noArg || m.Desc == "()V") {
					res.methods = append(res.methods, m)
				}
			}
		}
		for _, m := range t.methods {
			if m.Name == "<init>" {
				res.allocs = append(res.allocs, m.Class)
				res.inits = append(res.inits, m.Class)
			}
			res.methods = append(res.methods, m)
		}
	default:
		for _, c := range t.classes {
			res.virtual = append(res.virtual, s.invocable(d.at.caller.Class, c, nil, "", d.open)...)
		}
		for _, m := range t.methods {
			res.virtual = append(res.virtual, virtualCall{declared: m.Class, method: m})
		}
	}
	return res
}
