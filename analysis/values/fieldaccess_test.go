package values

import (
	"context"
	"slices"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// TestFieldAccess checks which fields the Field object of each Field.get in
// testdata/java/fieldaccess may be, from Correct-String on (the names come from
// the string analysis), as its comments say; below, none is known.
func TestFieldAccess(t *testing.T) {
	ix, main := programClass(t, "fieldaccess", classpath.Application, "fa/Main")
	want := map[string][]string{
		"declared":  {"fa/Main$Box.count"},
		"inherited": {"fa/Main$Base.size"},
		"constant":  {"fa/Main$Limits.MAX"},
		"notPublic": {},
		"helper":    {"fa/Main$Box.label", "fa/Main$Base.size"},
		"unknown":   nil, // not known
	}
	for _, lv := range []callgraph.Level{callgraph.CorrectCast, callgraph.CorrectString} {
		va := New(ix, NewIndex(ix), lv, Environment{})
		for name, fields := range want {
			names, ev, ok := fieldsNamed(t, ix, va, main, name)
			switch {
			case !lv.TrustsStrings() || fields == nil:
				if ok {
					t.Errorf("%v %s: fields %v (%s), want none known", lv, name, names, ev)
				}
			case !ok || !slices.Equal(names, fields) && !(len(names) == 0 && len(fields) == 0):
				t.Errorf("%v %s: fields %v (known %v, %s), want %v", lv, name, names, ok, ev, fields)
			}
		}
	}
}

// TestPrivilegedReturns: a Field object from AccessController.doPrivileged is what
// the run of the action it is handed returns, when the caller creates the action
// (an anonymous class, a lambda that captures nothing): the values follow
// doPrivileged's code (the JDK's, here the mini JDK's copy) into that run. An
// action from a public parameter stays unknown. testdata/java/fieldaccess's
// privileged* methods say which field each call names.
func TestPrivilegedReturns(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "fieldaccess"))
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{
		{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: classes, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	main := ix.Hierarchy().Class("fa/Main")
	va := New(ix, NewIndex(ix), callgraph.CorrectString, Environment{})
	for name, want := range map[string][]string{
		"privileged":       {"fa/Main$Box.count"},
		"privilegedLambda": {"fa/Main$Box.label"},
		"givenAction":      nil, // not known
	} {
		names, ev, ok := fieldsNamed(t, ix, va, main, name)
		if ok != (want != nil) || !slices.Equal(names, want) {
			t.Errorf("%s: fields %v (known %v, %s), want %v", name, names, ok, ev, want)
		}
	}
}

// fieldsNamed returns the fields (class.name) that the first call of Field in
// method name of class main may access, with the evidence and whether they are
// known.
func fieldsNamed(t *testing.T, ix *index.Index, va *Analyzer, main *hierarchy.Class, name string) ([]string, string, bool) {
	t.Helper()
	m := main.Methods[slices.IndexFunc(main.Methods, func(x *hierarchy.Method) bool { return x.Name == name })]
	f := ix.Facts(m)
	i := slices.IndexFunc(f.Calls, func(c facts.Call) bool { return c.Ref.Class == "java/lang/reflect/Field" })
	if i < 0 {
		t.Fatalf("%s: no call of Field", name)
	}
	got, ev, _, ok := va.FieldAccess(m, f.Calls[i].PC)
	var names []string
	for _, fd := range got {
		names = append(names, fd.Class.Name+"."+fd.Name)
	}
	return names, ev, ok
}
