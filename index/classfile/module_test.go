package classfile_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// moduleSources is a module that uses every part of the Module attribute.
var moduleSources = map[string]string{
	"module-info.java": `open module m.test {
    requires transitive java.logging;
    requires static java.sql;
    exports p;
    exports p.q to java.base, java.logging;
    uses p.S;
    uses java.nio.file.spi.FileSystemProvider;
    provides p.S with p.A, p.q.B;
    provides java.nio.file.spi.FileSystemProvider with p.q.F;
}`,
	"p/S.java":   "package p; public interface S {}",
	"p/A.java":   "package p; public class A implements S {}",
	"p/q/B.java": "package p.q; public class B implements p.S {}",
	"p/q/F.java": `package p.q;
public abstract class F extends java.nio.file.spi.FileSystemProvider {
    public static F provider() { return null; }
}`,
}

// compiledModuleInfo compiles moduleSources and returns its module-info.class.
func compiledModuleInfo(t testing.TB) []byte {
	t.Helper()
	src := t.TempDir()
	for name, text := range moduleSources {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// javatest.Compile passes an empty -sourcepath, which javac refuses for a
	// module's sources; a module this small compiles fast without its cache.
	dir := t.TempDir()
	args := []string{"--release", "17", "-d", dir}
	for name := range moduleSources {
		args = append(args, filepath.Join(src, filepath.FromSlash(name)))
	}
	if out, err := exec.Command(javatest.Javac(t), args...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "module-info.class"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestModule(t *testing.T) {
	f, err := classfile.Parse(compiledModuleInfo(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.Module()
	if err != nil {
		t.Fatal(err)
	}
	want := &classfile.Module{
		Name: "m.test", Flags: 0x0020,
		Requires: []classfile.ModuleRequire{
			{Module: "java.base", Flags: 0x8000}, // mandated
			{Module: "java.logging", Flags: 0x0020},
			{Module: "java.sql", Flags: 0x0040},
		},
		Exports: []classfile.ModulePackage{
			{Package: "p"},
			{Package: "p/q", To: []string{"java.base", "java.logging"}},
		},
		Uses: []string{"p/S", "java/nio/file/spi/FileSystemProvider"},
		Provides: []classfile.ModuleProvide{
			{Service: "p/S", With: []string{"p/A", "p/q/B"}},
			{Service: "java/nio/file/spi/FileSystemProvider", With: []string{"p/q/F"}},
		},
	}
	// javac records the version of the JDK module required; it varies.
	for i := range m.Requires {
		m.Requires[i].Version = ""
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("Module() =\n%+v\nwant\n%+v", m, want)
	}

	// An ordinary class has none.
	for _, b := range compiledClasses(t) {
		f, err := classfile.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := f.Module(); m != nil || err != nil {
			t.Fatalf("%s: Module() = %v, %v", f.Name, m, err)
		}
		break
	}
}

// TestModuleMalformed breaks the compiled descriptor's Module attribute in ways that
// keep the class file itself well-formed, so that only Module can notice.
func TestModuleMalformed(t *testing.T) {
	good := compiledModuleInfo(t)
	off, n := moduleAttr(t, good)
	for _, tc := range []struct {
		name string
		edit func(info []byte)
		msg  string
	}{
		{"module name not a Module", func(info []byte) { binary.BigEndian.PutUint16(info[0:], 1) }, "module name is not a Module constant"},
		// The last provides entry ends with its with_count (1) and one class.
		{"with_count 0", func(info []byte) { binary.BigEndian.PutUint16(info[len(info)-4:], 0) }, "provides without a provider class"},
		{"requires count past the end", func(info []byte) { binary.BigEndian.PutUint16(info[6:], 0xFFFF) }, "exceeds the remaining data"},
	} {
		b := bytes.Clone(good)
		tc.edit(b[off : off+n])
		f, err := classfile.Parse(b)
		if err != nil {
			t.Fatalf("%s: the class file itself broke: %v", tc.name, err)
		}
		m, err := f.Module()
		if err == nil || m != nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: Module() = %v, %v; want an error containing %q", tc.name, m, err, tc.msg)
		}
	}
}

// moduleAttr returns the offset and length of the Module attribute's info: the
// attribute whose name is the Utf8 "Module" and whose info starts with a Module
// constant.
func moduleAttr(t testing.TB, b []byte) (off, n int) {
	t.Helper()
	f, err := classfile.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	moduleIdx := -1
	for i := 1; i < f.Pool.Len(); i++ {
		if f.Pool.Tag(uint16(i)) == classfile.TagUtf8 && f.Pool.Utf8(uint16(i)) == "Module" {
			moduleIdx = i
		}
	}
	for off := 10; moduleIdx > 0 && off+8 < len(b); off++ {
		if int(binary.BigEndian.Uint16(b[off:])) != moduleIdx {
			continue
		}
		l := int(binary.BigEndian.Uint32(b[off+2:]))
		if l >= 16 && off+6+l <= len(b) && f.Pool.Tag(binary.BigEndian.Uint16(b[off+6:])) == classfile.TagModule {
			return off + 6, l
		}
	}
	t.Fatal("Module attribute not found")
	return 0, 0
}

// jdkModuleInfos returns a few module descriptors of the JDK 17 image.
func jdkModuleInfos(t testing.TB) [][]byte {
	t.Helper()
	f, err := os.Open(filepath.Join(jdk17, "lib", "modules"))
	if err != nil {
		return nil
	}
	defer f.Close()
	st, _ := f.Stat()
	im, err := classpath.OpenImage(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, m := range []string{"java.base", "jdk.localedata", "java.se", "jdk.zipfs"} {
		r, ok := im.Find("/" + m + "/module-info.class")
		if !ok {
			t.Fatalf("no descriptor of %s", m)
		}
		b, err := im.Data(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func TestModuleJDK(t *testing.T) {
	infos := jdkModuleInfos(t)
	if infos == nil {
		t.Skipf("no JDK image at %s", jdk17)
	}
	f, err := classfile.Parse(infos[1])
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.Module()
	if err != nil {
		t.Fatal(err)
	}
	// java --describe-module jdk.localedata (JDK 17):
	//   provides sun.util.locale.provider.LocaleDataMetaInfo with
	//     sun.util.resources.cldr.provider.CLDRLocaleDataMetaInfo sun.util.resources.provider.NonBaseLocaleDataMetaInfo
	found := false
	for _, p := range m.Provides {
		if p.Service == "sun/util/locale/provider/LocaleDataMetaInfo" {
			found = reflect.DeepEqual(p.With, []string{"sun/util/resources/cldr/provider/CLDRLocaleDataMetaInfo", "sun/util/resources/provider/NonBaseLocaleDataMetaInfo"})
		}
	}
	if m.Name != "jdk.localedata" || !found {
		t.Errorf("jdk.localedata: %+v", m)
	}
}

// FuzzModule decodes Module attributes of mutated descriptors: errors are fine,
// panics and unbounded allocations are not.
func FuzzModule(f *testing.F) {
	f.Add(compiledModuleInfo(f))
	for _, b := range jdkModuleInfos(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, err := classfile.Parse(data)
		if err != nil {
			return
		}
		if m, err := cf.Module(); err != nil && m != nil {
			t.Errorf("Module returned both a module and %v", err)
		}
	})
}
