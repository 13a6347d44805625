package analysis

import (
	"fmt"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// jvmEntries are methods the JVM itself calls: system start-up (JDK 9+), the
// uncaught-exception handler, thread exit and shutdown. Those absent from the JDK in
// use are skipped.
var jvmEntries = []struct{ class, name, desc string }{
	{"java/lang/System", "initPhase1", "()V"},
	{"java/lang/System", "initPhase2", "(ZZ)I"},
	{"java/lang/System", "initPhase3", "()V"},
	{"java/lang/System", "initializeSystemClass", "()V"}, // JDK 8
	{"java/lang/Thread", "dispatchUncaughtException", "(Ljava/lang/Throwable;)V"},
	{"java/lang/Thread", "exit", "()V"},
	{"java/lang/Shutdown", "shutdown", "()V"},
	{"java/lang/ClassLoader", "getSystemClassLoader", "()Ljava/lang/ClassLoader;"},
}

// addEntries makes the run's entry points reachable: the main methods (or the library
// API, or the explicit list) and the JVM's own entry points.
func (s *solver) addEntries() error {
	var roots []*hierarchy.Method
	switch {
	case len(s.opts.Entries) > 0:
		for _, e := range s.opts.Entries {
			ms, err := s.lookupEntry(e)
			if err != nil {
				return err
			}
			roots = append(roots, ms...)
		}
	case s.opts.LibraryMode:
		// The methods a client may call (library.go): what it may invoke by name,
		// and callbacks, overrides of methods of types it can name that it calls on
		// objects the library hands it.
		for _, c := range s.h.Classes() {
			if c.Origin != hierarchy.Application || c.Phantom {
				continue
			}
			for _, m := range c.Methods {
				if s.clientEntry(m) {
					roots = append(roots, m)
				}
			}
		}
	default:
		want := map[string]bool{}
		for _, n := range s.opts.Mains {
			c, _, err := MainClass(s.h, n)
			if err != nil {
				return err
			}
			want[c.Name] = true
		}
		for _, c := range s.h.Classes() {
			if c.Origin != hierarchy.Application || (len(want) > 0 && !want[c.Name]) {
				continue
			}
			if m := mainMethod(c); m != nil {
				roots = append(roots, m)
			}
		}
	}
	if len(roots) == 0 {
		return ErrNoEntryPoints
	}
	for _, m := range roots {
		s.entry(m)
		if s.opts.LibraryMode && m.IsConstructor() {
			// A client calling the constructor creates an instance: RTA's dispatches
			// must see it.
			s.oracle.Created(algo.Any(m.Class), m.Class)
		}
		// The JVM initialises a class before running its static methods.
		if m.IsStatic() {
			for _, id := range s.a.initChain(m.Class) {
				s.entry(s.methods[id])
			}
		}
	}
	for _, e := range jvmEntries {
		if c := s.h.Class(e.class); c != nil {
			if m := c.Method(e.name, e.desc); m != nil {
				s.entry(m)
			}
		}
	}
	return nil
}

func (s *solver) entry(m *hierarchy.Method) {
	if !s.reach.Has(m.ID) {
		s.entries = append(s.entries, m.ID)
	}
	s.reachable(m.ID)
	if s.fl != nil {
		// The JVM (or a client) calls it, with what it holds.
		s.follow(site{pc: -1, line: -1, call: -1}, nil, s.singleton(m.ID), algo.Direct)
	}
}

// MainClass finds the class whose main method the JVM runs for a main class named
// name (binary or internal). Besides a Java class with a public static main, it
// takes what users of other JVM languages name: a Scala object's module class
// (Foo$, whose main is an instance method reached through MODULE$) means its
// companion's static forwarder Foo.main, the JVM's actual entry; a Kotlin file
// whose top-level main compiles to the file class FooKt may be named Foo. note
// says what was taken instead of name, and is empty when name was taken as it is.
func MainClass(h *hierarchy.Hierarchy, name string) (c *hierarchy.Class, note string, err error) {
	internal := strings.ReplaceAll(name, ".", "/")
	c = h.Class(internal)
	if c != nil && !c.Phantom && mainMethod(c) != nil {
		return c, "", nil
	}
	if module, ok := strings.CutSuffix(internal, "$"); ok && c != nil && !c.Phantom && c.Method("main", "([Ljava/lang/String;)V") != nil {
		if fwd := h.Class(module); fwd != nil && !fwd.Phantom && mainMethod(fwd) != nil {
			return fwd, fmt.Sprintf("%s is a Scala object's module class: its main runs through the static forwarder %s.main, the JVM's entry", name, strings.ReplaceAll(module, "/", ".")), nil
		}
	}
	if kt := h.Class(internal + "Kt"); kt != nil && !kt.Phantom && mainMethod(kt) != nil {
		return kt, fmt.Sprintf("%s: taking the Kotlin file class %sKt, whose static main is the top-level main of the file", name, name), nil
	}
	if c == nil || c.Phantom {
		return nil, "", fmt.Errorf("main class %s is not on the class path", name)
	}
	return nil, "", fmt.Errorf("class %s has no public static void main(String[])", name)
}

func mainMethod(c *hierarchy.Class) *hierarchy.Method {
	m := c.Method("main", "([Ljava/lang/String;)V")
	if m == nil || !m.IsStatic() || m.Access&0x0001 == 0 {
		return nil
	}
	return m
}

// lookupEntry finds the methods named by "pkg.Class.name" or "pkg.Class.name(desc)".
func (s *solver) lookupEntry(e string) ([]*hierarchy.Method, error) {
	ms, err := LookupMethods(s.h, e)
	if err != nil {
		return nil, fmt.Errorf("entry point %w", err)
	}
	return ms, nil
}

// LookupMethods finds the methods of a class that "pkg.Class.name" (every overload)
// or "pkg.Class.name(desc)" names.
func LookupMethods(h *hierarchy.Hierarchy, e string) ([]*hierarchy.Method, error) {
	name, desc := e, ""
	if i := strings.IndexByte(e, '('); i >= 0 {
		name, desc = e[:i], e[i:]
	}
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 {
		return nil, fmt.Errorf("%q: want pkg.Class.method or pkg.Class.method(descriptor)", e)
	}
	cname := strings.ReplaceAll(name[:dot], ".", "/")
	c := h.Class(cname)
	if c == nil || c.Phantom {
		return nil, fmt.Errorf("%q: class %s is not on the class path", e, name[:dot])
	}
	var out []*hierarchy.Method
	for _, m := range c.Methods {
		if m.Name == name[dot+1:] && (desc == "" || m.Desc == desc) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q: no such method in %s", e, name[:dot])
	}
	return out, nil
}
