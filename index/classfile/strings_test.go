package classfile_test

import (
	"maps"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// sameString reports whether a and b are one string in memory, not two equal ones.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// poolStrings returns every Utf8 constant of f's pool.
func poolStrings(f *classfile.File) []string {
	var out []string
	for i := 1; i < f.Pool.Len(); i++ {
		if f.Pool.Tag(uint16(i)) == classfile.TagUtf8 {
			out = append(out, f.Pool.Utf8(uint16(i)))
		}
	}
	return out
}

// TestParseShared parses the features program's classes with one table: every
// string reads as Parse gives it, and the names the classes have in common
// ("java/lang/Object", "<init>", "()V", the pool's own) are one copy, where
// Parse makes a new one on every call.
func TestParseShared(t *testing.T) {
	strs := classfile.NewStrings()
	canon := map[string]string{}
	shared := 0
	for name, b := range compiledClasses(t) {
		plain, err := classfile.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		f, err := classfile.ParseShared(b, strs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, got := poolStrings(plain), poolStrings(f)
		if len(got) != len(want) {
			t.Fatalf("%s: %d strings shared, %d parsed", name, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: string %d is %q from the table, %q parsed", name, i, got[i], want[i])
			}
			if c, ok := canon[got[i]]; ok {
				if !sameString(c, got[i]) {
					t.Errorf("%s: %q is a second copy", name, got[i])
				}
				shared++
			} else {
				canon[got[i]] = got[i]
			}
		}
		for i := range f.Methods {
			m := &f.Methods[i]
			if !sameString(m.Name, canon[m.Name]) || !sameString(m.Desc, canon[m.Desc]) {
				t.Errorf("%s: method %s%s does not share its name and descriptor with the pool's", name, m.Name, m.Desc)
			}
		}
		if again := plain.Pool.Utf8(1); len(again) > 0 && sameString(again, plain.Pool.Utf8(1)) {
			t.Errorf("%s: Parse's pool returned one copy twice: the check above proves nothing", name)
		}
	}
	if shared == 0 {
		t.Fatal("no string was shared across the classes")
	}
	if n := strs.Len(); n != len(canon) {
		t.Errorf("the table holds %d strings, the classes %d distinct ones", n, len(canon))
	}
}

// TestStringsRelease: after Release the table is empty, what it gave out stays
// valid, and a later parse fills it again.
func TestStringsRelease(t *testing.T) {
	var data []byte
	for _, b := range compiledClasses(t) {
		data = b
		break
	}
	strs := classfile.NewStrings()
	f, err := classfile.ParseShared(data, strs)
	if err != nil {
		t.Fatal(err)
	}
	before := poolStrings(f)
	n := strs.Len()
	strs.Release()
	if got := strs.Len(); got != 0 || n == 0 {
		t.Fatalf("the table holds %d strings before Release and %d after, want some and 0", n, got)
	}
	after := poolStrings(f)
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("string %d: %q before Release, %q after", i, before[i], after[i])
		}
	}
	if got := strs.Len(); got != n {
		t.Errorf("after reading the pool again the table holds %d strings, want %d", got, n)
	}
}

// TestStringsConcurrent parses the same classes from several goroutines with one
// table (run it with -race): each string has one copy whichever goroutine made it.
func TestStringsConcurrent(t *testing.T) {
	classes := slices.Collect(maps.Values(compiledClasses(t))) // one order for all
	strs := classfile.NewStrings()
	const workers = 4
	names := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, b := range classes {
				f, err := classfile.ParseShared(b, strs)
				if err != nil {
					t.Error(err)
					return
				}
				names[w] = append(names[w], f.Name)
			}
		}()
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		for i := range names[0] {
			if !sameString(names[0][i], names[w][i]) {
				t.Fatalf("%s: goroutines 0 and %d hold different copies", names[0][i], w)
			}
		}
	}
}
