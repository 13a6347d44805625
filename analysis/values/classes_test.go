package values

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
)

// The loading calls and the operand holding the class name: the JDK's own
// loadClass(Module, String) (ClassLoader's instance method, BootLoader's static one)
// takes the name after the Module, as forName(Module, String) does. Test programs
// cannot call these (they are not public), so they are checked here.
func TestLoadingNameOperand(t *testing.T) {
	call := func(op bytecode.Opcode, class, name, desc string) *facts.Call {
		return &facts.Call{Op: op, Ref: &classfile.Ref{Class: class, Name: name, Desc: desc}}
	}
	for _, tc := range []struct {
		c    *facts.Call
		api  string
		name int
	}{
		{call(bytecode.Invokestatic, "java/lang/Class", "forName", "(Ljava/lang/String;)Ljava/lang/Class;"), "Class.forName", 0},
		{call(bytecode.Invokestatic, "java/lang/Class", "forName", "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;"), "Class.forName", 0},
		{call(bytecode.Invokestatic, "java/lang/Class", "forName", "(Ljava/lang/Module;Ljava/lang/String;)Ljava/lang/Class;"), "Class.forName", 1},
		{call(bytecode.Invokevirtual, "java/lang/ClassLoader", "loadClass", "(Ljava/lang/String;)Ljava/lang/Class;"), "ClassLoader.loadClass", 1},
		{call(bytecode.Invokevirtual, "java/lang/ClassLoader", "loadClass", "(Ljava/lang/String;Z)Ljava/lang/Class;"), "ClassLoader.loadClass", 1},
		{call(bytecode.Invokevirtual, "java/lang/ClassLoader", "loadClass", "(Ljava/lang/Module;Ljava/lang/String;)Ljava/lang/Class;"), "ClassLoader.loadClass", 2},
		{call(bytecode.Invokestatic, "jdk/internal/loader/BootLoader", "loadClass", "(Ljava/lang/Module;Ljava/lang/String;)Ljava/lang/Class;"), "ClassLoader.loadClass", 1},
		{call(bytecode.Invokevirtual, "java/lang/invoke/MethodHandles$Lookup", "findClass", "(Ljava/lang/String;)Ljava/lang/Class;"), "Lookup.findClass", 1},
		{call(bytecode.Invokevirtual, "java/lang/ClassLoader", "loadClass", "(Ljava/lang/Object;)Ljava/lang/Class;"), "", -1},
	} {
		if got := LoadingAPI(tc.c); got != tc.api {
			t.Errorf("LoadingAPI(%s.%s%s) = %q, want %q", tc.c.Ref.Class, tc.c.Ref.Name, tc.c.Ref.Desc, got, tc.api)
			continue
		}
		if tc.api == "" {
			continue
		}
		if got := loadingNameOperand(tc.c); got != tc.name {
			t.Errorf("loadingNameOperand(%s.%s%s) = %d, want %d", tc.c.Ref.Class, tc.c.Ref.Name, tc.c.Ref.Desc, got, tc.name)
		}
	}
}
