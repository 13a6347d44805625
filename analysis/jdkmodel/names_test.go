package jdkmodel

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestModelNamesResolve checks that every class and method the shipped model names,
// in its selectors and its effects, exists in at least one of the JDK images on the
// machine: a misspelt descriptor would otherwise be skipped silently by the analysis
// (which resolves each name in the JDK in use and drops what it cannot find). It also
// checks that a dispatch on this or argN fits every native the entry applies to: this
// of an instance method, argN an object parameter.
func TestModelNamesResolve(t *testing.T) {
	m, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	homes := []string{javatest.JDKHome(t)}
	if _, err := os.Stat(jdk25); err == nil {
		homes = append(homes, jdk25)
	}
	var hs []*hierarchy.Hierarchy
	for _, home := range homes {
		ix, err := index.Build(context.Background(), index.Config{JDKHome: home}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		hs = append(hs, ix.Hierarchy())
	}
	class := func(name string) bool {
		return slices.ContainsFunc(hs, func(h *hierarchy.Hierarchy) bool {
			c := h.Class(name)
			return c != nil && !c.Phantom
		})
	}
	method := func(cname, name, desc string) bool {
		return slices.ContainsFunc(hs, func(h *hierarchy.Hierarchy) bool {
			c := h.Class(cname)
			if c == nil || c.Phantom {
				return false
			}
			if c.Method(name, desc) != nil {
				return true
			}
			_, err := h.ResolveMethod(c, name, desc, c.IsInterface())
			return err == nil
		})
	}
	nativeIn := func(cname, name, desc string) bool {
		return slices.ContainsFunc(hs, func(h *hierarchy.Hierarchy) bool {
			c := h.Class(cname)
			if c == nil {
				return false
			}
			for _, meth := range h.Methods() {
				if meth.Class == c && meth.Name == name && (desc == "" || meth.Desc == desc) && meth.IsNative() {
					return true
				}
			}
			return false
		})
	}
	// natives lists the native methods of the JDKs an entry applies to, for the
	// checks of this and argN.
	natives := func(e *Entry) []*hierarchy.Method {
		var out []*hierarchy.Method
		for _, h := range hs {
			for _, meth := range h.Methods() {
				if meth.IsNative() && meth.Class.Origin == hierarchy.JDK && m.Lookup(meth.Class.Name, meth.Name, meth.Desc) == e {
					out = append(out, meth)
				}
			}
		}
		return out
	}
	var bad []string
	checked := 0
	for _, e := range m.Entries {
		if e.Kind != SelJVM && slices.ContainsFunc(e.Effects, func(x Effect) bool { return x.Value.Kind == ValThis || x.Value.Kind == ValArg }) {
			for _, meth := range natives(e) {
				checked++
				for _, eff := range e.Effects {
					switch eff.Value.Kind {
					case ValThis:
						if meth.IsStatic() {
							bad = append(bad, e.Selector()+": "+eff.String()+": "+meth.Class.Name+"."+meth.Name+meth.Desc+" is static")
						}
					case ValArg:
						if p := ParamDesc(meth.Desc, eff.Value.Arg); p == "" || (p[0] != 'L' && p[0] != '[') {
							bad = append(bad, e.Selector()+": "+eff.String()+": parameter "+strconv.Itoa(eff.Value.Arg)+" of "+meth.Class.Name+"."+meth.Name+meth.Desc+" is not an object")
						}
					}
				}
			}
		}
		switch e.Kind {
		case SelMethod, SelName:
			if !nativeIn(e.Class, e.Name, e.Desc) {
				bad = append(bad, e.Selector()+": no such native method in the JDKs")
			}
		case SelClass:
			if !class(e.Class) {
				bad = append(bad, e.Selector()+": no such class in the JDKs")
			}
		}
		for _, eff := range e.Effects {
			switch eff.Kind {
			case EffCall, EffDispatch, EffNew:
				if !method(eff.Class, eff.Name, eff.Desc) {
					bad = append(bad, e.Selector()+": "+eff.String()+": no such method in the JDKs")
				}
			case EffAlloc, EffInit:
				if !class(eff.Class) {
					bad = append(bad, e.Selector()+": "+eff.String()+": no such class in the JDKs")
				}
			}
		}
	}
	t.Logf("this/argN checked on %d natives", checked)
	if len(bad) > 0 {
		t.Errorf("%d names of the model resolve in none of %s:\n%s", len(bad), strings.Join(homes, ", "), strings.Join(bad, "\n"))
	}
}

// TestModelKeyEntries pins what the model says about the natives and JVM activities
// the assumption-level document and the issue name as examples.
func TestModelKeyEntries(t *testing.T) {
	m, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	has := func(e *Entry, want string) bool {
		return slices.ContainsFunc(e.Effects, func(x Effect) bool { return x.String() == want })
	}
	natives := []struct {
		class, name, desc string
		want              []string
	}{
		{"java/lang/Thread", "start0", "()V", []string{"dispatch this java/lang/Thread.run ()V", "call java/lang/Thread.exit ()V"}},
		{"java/lang/Object", "clone", "()Ljava/lang/Object;", []string{"returns this"}},
		{"java/lang/Class", "forName0", "(Ljava/lang/String;ZLjava/lang/ClassLoader;Ljava/lang/Class;)Ljava/lang/Class;", []string{"handover loading"}},
		{"jdk/internal/reflect/NativeMethodAccessorImpl", "invoke0", "(Ljava/lang/reflect/Method;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;", []string{"handover invocation"}},
		{"jdk/internal/reflect/NativeConstructorAccessorImpl", "newInstance0", "(Ljava/lang/reflect/Constructor;[Ljava/lang/Object;)Ljava/lang/Object;", []string{"handover instantiation"}},
		{"java/lang/invoke/MethodHandleNatives", "resolve", "(Ljava/lang/invoke/MemberName;Ljava/lang/Class;IZ)Ljava/lang/invoke/MemberName;", []string{"handover methodhandle"}},
		{"java/lang/invoke/MethodHandle", "invokeExact", "([Ljava/lang/Object;)Ljava/lang/Object;", []string{"handover methodhandle"}},
		{"jdk/internal/misc/Unsafe", "allocateInstance", "(Ljava/lang/Class;)Ljava/lang/Object;", []string{"handover unsafe"}},
		{"java/lang/StrictMath", "sin", "(D)D", []string{"none"}},
		{"sun/nio/ch/Net", "accept", "(Ljava/io/FileDescriptor;Ljava/io/FileDescriptor;[Ljava/net/InetSocketAddress;)I", []string{"new java/net/InetSocketAddress (Ljava/net/InetAddress;I)V"}},
	}
	for _, n := range natives {
		e := m.Lookup(n.class, n.name, n.desc)
		if e == nil {
			t.Errorf("%s.%s%s: no entry", n.class, n.name, n.desc)
			continue
		}
		for _, w := range n.want {
			if !has(e, w) {
				t.Errorf("%s.%s%s (%s): missing effect %q", n.class, n.name, n.desc, e.Selector(), w)
			}
		}
		if n.class == "java/lang/Object" && (e.Has(EffCall) || e.Has(EffDispatch)) {
			t.Errorf("Object.clone calls something: %v", e.Effects)
		}
	}
	jvm := map[string]*Entry{}
	for _, e := range m.JVM() {
		jvm[e.Name] = e
	}
	upcalls := []struct{ entry, want string }{
		{"startup", "call java/lang/System.initPhase1 ()V"},
		{"launcher", "call sun/launcher/LauncherHelper.checkAndLoadMain (ZILjava/lang/String;)Ljava/lang/Class;"},
		{"thread-lifecycle", "call java/lang/Thread.dispatchUncaughtException (Ljava/lang/Throwable;)V"},
		{"shutdown", "call java/lang/Shutdown.shutdown ()V"},
		{"finalization", "call java/lang/ref/Finalizer.register (Ljava/lang/Object;)V"},
		{"class-loading", "dispatch any java/lang/ClassLoader.loadClass (Ljava/lang/String;)Ljava/lang/Class;"},
		{"method-handles", "call java/lang/invoke/MethodHandleNatives.findMethodHandleType (Ljava/lang/Class;[Ljava/lang/Class;)Ljava/lang/invoke/MethodType;"},
		{"signals", "call jdk/internal/misc/Signal.dispatch (I)V"},
		{"jni-functions", "new java/nio/DirectByteBuffer (JI)V"},
	}
	for _, u := range upcalls {
		e := jvm[u.entry]
		if e == nil {
			t.Errorf("no jvm %s entry", u.entry)
			continue
		}
		if !has(e, u.want) {
			t.Errorf("jvm %s: missing effect %q", u.entry, u.want)
		}
	}
}
