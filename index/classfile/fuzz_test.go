package classfile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// compiledClasses returns the class files of the features test program, which has
// one example of every construct javac emits.
func compiledClasses(t testing.TB) map[string][]byte {
	t.Helper()
	dir := javatest.Compile(t, javatest.Program(t, "features"), javatest.Release(17))
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".class") {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no classes compiled")
	}
	return out
}

// exercise calls every accessor of a parsed file, as a fuzz target must.
func exercise(f *classfile.File) {
	for i := 1; i < f.Pool.Len(); i++ {
		idx := uint16(i)
		switch f.Pool.Tag(idx) {
		case classfile.TagUtf8:
			_ = f.Pool.Utf8(idx)
		case classfile.TagFieldref, classfile.TagMethodref, classfile.TagInterfaceMethodref:
			_ = f.Pool.Ref(idx)
		case classfile.TagMethodHandle:
			f.Pool.MethodHandle(idx)
		case classfile.TagDynamic, classfile.TagInvokeDynamic:
			f.Pool.Dynamic(idx)
		}
	}
	for i := range f.Methods {
		code, err := f.Methods[i].Code()
		if err != nil || code == nil {
			continue
		}
		_ = code.LineAt(0)
		code.LocalVariables()
		bytecode.Walk(code.Bytecode, func(in bytecode.Instr) error {
			in.SwitchTargets(func(int32, int, bool) {})
			return nil
		})
	}
}

// methodRefsMismatch returns how MethodRefs differs from Ref over the method
// references of f, or "" when they agree entry by entry.
func methodRefsMismatch(f *classfile.File) string {
	var want []string
	for i := 1; i < f.Pool.Len(); i++ {
		if t := f.Pool.Tag(uint16(i)); t == classfile.TagMethodref || t == classfile.TagInterfaceMethodref {
			r := f.Pool.Ref(uint16(i))
			want = append(want, r.Name+" "+r.Desc)
		}
	}
	var got []string
	for name, desc := range f.Pool.MethodRefs() {
		got = append(got, string(name)+" "+string(desc))
	}
	if !slices.Equal(got, want) {
		return fmt.Sprintf("MethodRefs %q, Ref %q", got, want)
	}
	return ""
}

// TestTruncated parses every prefix of real class files: each must fail with a
// *FormatError whose offset lies inside the data, and never panic.
func TestTruncated(t *testing.T) {
	for name, b := range compiledClasses(t) {
		if _, err := classfile.Parse(b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for n := 0; n < len(b); n++ {
			f, err := classfile.Parse(b[:n])
			if err == nil {
				// Only a cut in the last attribute's padding could parse; class files
				// have none, so any success is a bug.
				t.Fatalf("%s: prefix of %d/%d bytes parsed as %s", name, n, len(b), f.Name)
			}
			var fe *classfile.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%s[:%d]: error %T is not a *FormatError: %v", name, n, err, err)
			}
			if fe.Offset < 0 || fe.Offset > int64(n) {
				t.Fatalf("%s[:%d]: offset %d outside the data", name, n, fe.Offset)
			}
		}
	}
}

// TestCorrupt flips each byte of a class and requires an error or a file whose every
// accessor works: the parser must never panic on hostile input.
func TestCorrupt(t *testing.T) {
	for _, b := range compiledClasses(t) {
		c := make([]byte, len(b))
		for i := range b {
			copy(c, b)
			c[i] ^= 0xff
			if f, err := classfile.Parse(c); err == nil {
				exercise(f)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"empty", nil, "unexpected end of data"},
		{"magic", []byte{0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 52}, "bad magic number"},
		{"version", []byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 70}, "unsupported class-file version"},
		{"pool count", []byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0xff, 0xff}, "constant_pool_count exceeds the remaining data"},
		{"bad tag", []byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 2, 2, 0, 0}, "invalid constant-pool tag"},
	} {
		_, err := classfile.Parse(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.msg)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, b := range compiledClasses(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, err := classfile.Parse(data)
		if err != nil {
			return
		}
		exercise(cf)
		if d := methodRefsMismatch(cf); d != "" {
			t.Error(d)
		}
		// A table of strings changes where strings are stored, never what they are.
		shared, err := classfile.ParseShared(data, classfile.NewStrings())
		if err != nil {
			t.Fatalf("Parse accepts the class, ParseShared fails: %v", err)
		}
		if got, want := poolStrings(shared), poolStrings(cf); !slices.Equal(got, want) {
			t.Errorf("ParseShared's strings %q, Parse's %q", got, want)
		}
		for range 2 { // the second time from the table
			for i := range cf.Pool.Len() {
				if got, want := *shared.Pool.SharedRef(uint16(i)), cf.Pool.Ref(uint16(i)); got != want {
					t.Fatalf("entry %d: SharedRef %v, Ref %v", i, got, want)
				}
			}
		}
	})
}

func TestModifiedUTF8(t *testing.T) {
	// A class whose only string is "\u0000\U0001F600" in modified UTF-8: NUL as C0 80,
	// the emoji as a surrogate pair of two three-byte sequences.
	mutf8 := []byte{0xC0, 0x80, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}
	b := []byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 4,
		1, 0, byte(len(mutf8))}
	b = append(b, mutf8...)
	b = append(b, 1, 0, 16)
	b = append(b, "java/lang/Object"...)
	b = append(b, 7, 0, 2)
	// access, this=#3, super=0 (java/lang/Object has none), no interfaces/fields/methods/attributes
	b = append(b, 0, 0x21, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	f, err := classfile.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Pool.Utf8(1), "\x00\U0001F600"; got != want {
		t.Errorf("Utf8 = %q, want %q", got, want)
	}
	// The table keys a string by its raw bytes and keeps it decoded.
	strs := classfile.NewStrings()
	for range 2 {
		f, err := classfile.ParseShared(b, strs)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := f.Pool.Utf8(1), "\x00\U0001F600"; got != want {
			t.Errorf("Utf8 from the table = %q, want %q", got, want)
		}
	}
	if f.Name != "java/lang/Object" || f.Super != "" {
		t.Errorf("name %q super %q", f.Name, f.Super)
	}
}

// eachBody calls fn for every method with code of the features program's
// classes, with its decoded local-variable table.
func eachBody(t *testing.T, fn func(f *classfile.File, m *classfile.Method, lvs []classfile.LocalVariable)) {
	for name, b := range compiledClasses(t) {
		f, err := classfile.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Methods {
			m := &f.Methods[i]
			code, err := m.Code()
			if err != nil || code == nil {
				continue
			}
			lvs, err := code.LocalVariables()
			if err != nil {
				t.Fatalf("%s.%s: %v", name, m.Name, err)
			}
			fn(f, m, lvs)
		}
	}
}

// TestLocalVariables decodes the local-variable tables javac -g writes: every
// instance method's slot 0 is "this".
func TestLocalVariables(t *testing.T) {
	n := 0
	eachBody(t, func(f *classfile.File, m *classfile.Method, lvs []classfile.LocalVariable) {
		if m.IsStatic() {
			return
		}
		for _, lv := range lvs {
			if lv.Index == 0 {
				n++
				if lv.Name != "this" || lv.Desc != "L"+f.Name+";" {
					t.Errorf("%s.%s: slot 0 is %s %s", f.Name, m.Name, lv.Name, lv.Desc)
				}
			}
		}
	})
	if n == 0 {
		t.Error("no local variable tables decoded")
	}
}

// TestCodeDoesNotAllocate guards the inlining of Method.Code: a caller that keeps the
// Code to itself gets it on its stack, so decoding a body without exception handlers
// or unsorted line tables allocates nothing.
func TestCodeDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	n := 0
	for _, b := range compiledClasses(t) {
		f, err := classfile.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Methods {
			m := &f.Methods[i]
			code, err := m.Code()
			if err != nil || code == nil || len(code.Handlers) > 0 {
				continue
			}
			n++
			allocs := testing.AllocsPerRun(10, func() {
				code, _ := m.Code()
				_ = code.LineAt(0)
			})
			if allocs != 0 {
				t.Fatalf("%s.%s: Code allocates %v times", f.Name, m.Name, allocs)
			}
		}
	}
	if n == 0 {
		t.Fatal("no method bodies checked")
	}
}

// TestMethodParameters: javac -parameters (javatest.Compile passes it) names every
// parameter of a method with code in MethodParameters, and -g names the same
// parameters in the local-variable table, in the slots after "this": the two
// attributes agree.
func TestMethodParameters(t *testing.T) {
	n := 0
	eachBody(t, func(f *classfile.File, m *classfile.Method, lvs []classfile.LocalVariable) {
		params := m.Parameters()
		if len(params) == 0 {
			return
		}
		names := map[int]string{} // slot -> name at pc 0
		for _, lv := range lvs {
			if lv.StartPC == 0 {
				names[int(lv.Index)] = lv.Name
			}
		}
		args, _, err := classfile.ParseMethodDescriptor(m.Desc)
		if err != nil {
			t.Fatal(err)
		}
		if len(params) != len(args) {
			return // javac's synthetic parameters (an inner class's outer instance) are not all named
		}
		slot := 0
		if !m.IsStatic() {
			slot = 1
		}
		for j, p := range params {
			if lv, ok := names[slot]; ok && p.Name != lv {
				t.Errorf("%s.%s%s: parameter %d is %q in MethodParameters, %q in the local variables", f.Name, m.Name, m.Desc, j, p.Name, lv)
			}
			n++
			if args[j] == "J" || args[j] == "D" {
				slot += 2
			} else {
				slot++
			}
		}
	})
	if n == 0 {
		t.Error("no MethodParameters decoded")
	}
}
