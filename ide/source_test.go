package ide

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/ide/javasrc"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/fspath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// mappedProgram indexes a compiled test program (without the JDK: the mapping needs
// only the program's own classes) and returns a snapshot-like view over it.
func mappedProgram(t *testing.T, srcDir string) (*Session, *Snapshot) {
	t.Helper()
	classes := javatest.Compile(t, srcDir, javatest.Release(17))
	ix, err := index.Build(context.Background(), index.Config{NoJDK: true, Sources: []classpath.Source{{Path: classes, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return NewSession(func() Settings { return Settings{} }, func(msg string) { t.Errorf("bug: %s", msg) }, nil), incremental.Open(&incremental.Project{SourceRoots: []string{srcDir}}, ix)
}

// TestMapping checks the source/bytecode mapping on every test program: each method
// with code maps to a declaration, lambda or initialiser in its source file, and each
// call instruction maps to a token with the called name that maps back to the same
// instruction. Calls javac adds without a token of their own (autoboxing, for-each
// iterators, string switches, requireNonNull of method-reference receivers, ...)
// must find no token rather than a wrong one.
func TestMapping(t *testing.T) {
	programs := map[string]string{
		"features":     javatest.Program(t, "features"),
		"main-example": javatest.Program(t, "main-example"),
		"hierarchy":    javatest.Program(t, "hierarchy"),
		"flow":         javatest.Program(t, "flow"),
		"plugins":      filepath.Join("..", "testdata", "lsp", "plugins", "src", "main", "java"),
	}
	for name, dir := range programs {
		t.Run(name, func(t *testing.T) {
			s, snap := mappedProgram(t, dir)
			var methods, calls, implicit int
			for path, classes := range sourcesOf(snap).classes {
				fm := s.fileMap(snap, path)
				if fm == nil {
					t.Fatalf("no mapping for %s", path)
				}
				for _, c := range classes {
					for _, m := range c.Methods {
						mf := snap.Index().Facts(m)
						if mf == nil || mf.FirstLine <= 0 {
							continue
						}
						if code := fm.methodCode[m.ID]; code == nil {
							if !implicitMethod(snap.Index().Hierarchy(), m) && !methodRefLambda(fm, mf.FirstLine) {
								t.Errorf("%s: %s: no source construct", filepath.Base(path), m)
							}
							continue
						}
						methods++
						for k := range mf.Calls {
							cl := &mf.Calls[k]
							if cl.Line <= 0 || callKey(cl) == "" {
								continue
							}
							tok, ok := fm.callToken(m, k)
							if !ok {
								implicit++
								if hasCallToken(fm.f, int(cl.Line)-1, cl.Ref.Name) && !implicitCall(cl.Ref.Name) {
									t.Errorf("%s:%d: %s call %d (%s.%s) found no token", filepath.Base(path), cl.Line, m, k, cl.Ref.Class, cl.Ref.Name)
								}
								continue
							}
							calls++
							text := fm.f.Text(tok)
							if !tokenFits(text, cl.Ref.Name, cl.Ref.Class) {
								t.Errorf("%s:%d: %s call %d (%s.%s) mapped to %q", filepath.Base(path), cl.Line, m, k, cl.Ref.Class, cl.Ref.Name, text)
								continue
							}
							if bm, bk, _ := fm.callAt(tok.Off); bm != m || bk != k {
								// Several instructions may share a token (a call javac
								// duplicates, e.g. in finally blocks): the token must
								// at least map back to an instruction of the same kind.
								if bm == nil || callKey(&snap.Index().Facts(bm).Calls[bk]) != callKey(cl) {
									t.Errorf("%s:%d: token %q of %s call %d maps back to %v call %d", filepath.Base(path), cl.Line, text, m, k, bm, bk)
								}
							}
						}
					}
				}
			}
			t.Logf("%d methods, %d calls mapped to tokens, %d calls without a token of their own", methods, calls, implicit)
			if methods == 0 || calls == 0 {
				t.Fatal("nothing mapped")
			}
		})
	}
}

// implicitMethod reports whether javac generates a method without a declaration of
// its own: bridges, accessors, enum and record members, default constructors.
func implicitMethod(h *hierarchy.Hierarchy, m *hierarchy.Method) bool {
	if m.Access&(classfile.AccSynthetic|classfile.AccBridge) != 0 && !strings.HasPrefix(m.Name, "lambda$") {
		return true
	}
	c := m.Class
	switch {
	case c.Access&classfile.AccSynthetic != 0:
		return true // e.g. the $SwitchMap$ holder of an enum switch
	case c.Access&classfile.AccEnum != 0 && (m.Name == "values" || m.Name == "valueOf" || m.Name == "<clinit>" || m.Name == "<init>"):
		return true
	case h.File(c) != nil && h.File(c).Record != nil:
		return true // accessors, canonical constructor, toString/equals/hashCode
	case m.Name == "<init>":
		return true // the default constructor
	}
	return false
}

// methodRefLambda reports whether a line holds a method reference: javac implements
// some (String[]::new, super::m) with a lambda$ method that has no lambda in the
// source.
func methodRefLambda(fm *fileMap, line int32) bool {
	for _, c := range fm.f.Calls {
		if c.Kind == javasrc.CallMethodRef && int32(c.Tok.Line)+1 == line {
			return true
		}
	}
	return false
}

// implicitCall names the methods javac calls on its own on lines where the source
// may also call them (string switches call hashCode and equals, for-each loops
// call iterator, hasNext and next, ...).
func implicitCall(name string) bool {
	return slices.Contains([]string{"hashCode", "equals", "iterator", "hasNext", "next", "close", "addSuppressed",
		"requireNonNull", "valueOf", "intValue", "longValue", "ordinal", "getClass", "values", "<init>", "append", "toString"}, name)
}

func hasCallToken(f *javasrc.File, line int, name string) bool {
	for _, c := range f.Calls {
		if int(c.Tok.Line) == line && c.Kind == javasrc.CallMethod && c.Name == name {
			return true
		}
	}
	return false
}

func tokenFits(text, name, class string) bool {
	switch {
	case text == "->" || text == "::":
		return true // invokedynamic
	case name == "<init>":
		return true // T of new T(, this, super, an enum constant
	}
	return text == name
}

// TestParamsScore checks overload resolution against descriptors.
func TestParamsScore(t *testing.T) {
	p := func(typ string, dims int) javasrc.Param { return javasrc.Param{Type: typ, Dims: dims, Name: "x"} }
	tv := map[string]bool{"T": true}
	for _, tc := range []struct {
		ps   []javasrc.Param
		desc string
		ctor bool
		ok   bool
	}{
		{nil, "()V", false, true},
		{[]javasrc.Param{p("String", 0)}, "(Ljava/lang/String;)V", false, true},
		{[]javasrc.Param{p("String", 0)}, "(Ljava/lang/Object;)V", false, false},
		{[]javasrc.Param{p("int", 1)}, "([I)V", false, true},
		{[]javasrc.Param{p("Entry", 0)}, "(Ljava/util/Map$Entry;)V", false, true},
		{[]javasrc.Param{p("T", 0)}, "(Ljava/lang/Comparable;)V", false, true},
		{[]javasrc.Param{p("T", 0)}, "(I)V", false, false},
		{[]javasrc.Param{p("String", 0)}, "(Lp/Outer;Ljava/lang/String;)V", true, true}, // inner class constructor
		{[]javasrc.Param{p("int", 0)}, "(Ljava/lang/String;II)V", true, true},           // enum constructor
		{[]javasrc.Param{p("String", 0)}, "(Lp/Outer;Ljava/lang/String;)V", false, false},
	} {
		if got := paramsScore(tc.ps, tc.desc, tc.ctor, tv) >= 0; got != tc.ok {
			t.Errorf("paramsScore(%v, %s, ctor=%v) ok = %v, want %v", tc.ps, tc.desc, tc.ctor, got, tc.ok)
		}
	}
	// The inner-class window right after the outer instance wins over a later one.
	a := paramsScore([]javasrc.Param{p("String", 0)}, "(Lp/O;Ljava/lang/String;Ljava/lang/String;)V", true, nil)
	if a < 0 {
		t.Fatal("no match")
	}
}

// TestSourceSpelling: on a case-insensitive file system the editor may name a
// source file otherwise than the walk of the source roots spelled it (a folder
// opened as ~/Work/proj, found as ~/work/Proj); its classes are found either way.
// On Linux the other spelling is another file.
func TestSourceSpelling(t *testing.T) {
	dir := javatest.Program(t, "main-example")
	_, snap := mappedProgram(t, dir)
	mac := buildSourceIndex(context.Background(), []string{dir}, snap.Hierarchy(), fspath.For("darwin"))
	linux := buildSourceIndex(context.Background(), []string{dir}, snap.Hierarchy(), fspath.For("linux"))
	if len(mac.classes) == 0 {
		t.Fatal("no source files mapped")
	}
	for path, classes := range mac.classes {
		other := strings.ToUpper(path)
		if got := mac.classesOf(other); !slices.Equal(got, classes) {
			t.Errorf("%s: %d classes, want %d (those of %s)", other, len(got), len(classes), path)
		}
		if got := linux.classesOf(other); got != nil {
			t.Errorf("Linux: %s has the classes of %s", other, path)
		}
	}
}
