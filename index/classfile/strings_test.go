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
	if n, _ := strs.Len(); n != len(canon) {
		t.Errorf("the table holds %d strings, the classes %d distinct ones", n, len(canon))
	}
}

// TestStringsRelease: after Release the table is empty, what it gave out stays
// valid, and a later parse fills it again.
func TestStringsRelease(t *testing.T) {
	strs := classfile.NewStrings()
	var f *classfile.File
	for _, b := range compiledClasses(t) {
		var err error
		if f, err = classfile.ParseShared(b, strs); err != nil {
			t.Fatal(err)
		}
		if refIndex(f) != 0 {
			break // a class with a reference (some interfaces have none)
		}
	}
	if f == nil || refIndex(f) == 0 {
		t.Fatal("no compiled class has a method or field reference")
	}
	strs.Release() // the classes parsed before f
	before := poolStrings(f)
	ref := f.Pool.SharedRef(refIndex(f))
	n, refs := strs.Len()
	strs.Release()
	if got, gotRefs := strs.Len(); got != 0 || gotRefs != 0 || n == 0 || refs != 1 {
		t.Fatalf("the table holds %d strings and %d references before Release and %d and %d after, want some, 1, 0 and 0", n, refs, got, gotRefs)
	}
	if again := f.Pool.SharedRef(refIndex(f)); again == ref || *again != *ref {
		t.Errorf("after Release SharedRef gives %v at %p, before %v at %p: want an equal new one", *again, again, *ref, ref)
	}
	after := poolStrings(f)
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("string %d: %q before Release, %q after", i, before[i], after[i])
		}
	}
	if got, _ := strs.Len(); got != n {
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

// refIndex returns the pool index of f's first method or field reference, or 0.
func refIndex(f *classfile.File) uint16 {
	for i := 1; i < f.Pool.Len(); i++ {
		switch f.Pool.Tag(uint16(i)) {
		case classfile.TagMethodref, classfile.TagInterfaceMethodref, classfile.TagFieldref:
			return uint16(i)
		}
	}
	return 0
}

// TestSharedRef: equal references of two classes parsed with one table are one
// Ref; without a table each call gives a new one; other entries give a zero Ref.
func TestSharedRef(t *testing.T) {
	strs := classfile.NewStrings()
	byValue := map[classfile.Ref]*classfile.Ref{}
	shared := 0
	for name, b := range compiledClasses(t) {
		f, err := classfile.ParseShared(b, strs)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := classfile.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < f.Pool.Len(); i++ {
			idx := uint16(i)
			r := f.Pool.SharedRef(idx)
			if *r != f.Pool.Ref(idx) {
				t.Fatalf("%s #%d: SharedRef %v, Ref %v", name, i, *r, f.Pool.Ref(idx))
			}
			if p := plain.Pool.SharedRef(idx); p == plain.Pool.SharedRef(idx) || *p != *r {
				t.Fatalf("%s #%d: without a table SharedRef gives %v, twice the same pointer or another value than %v", name, i, *p, *r)
			}
			if prev, ok := byValue[*r]; ok {
				if prev != r {
					t.Errorf("%s #%d: a second %v", name, i, *r)
				}
				shared++
			}
			byValue[*r] = r
		}
	}
	if zero, ok := byValue[classfile.Ref{}]; !ok || *zero != (classfile.Ref{}) {
		t.Error("no zero Ref for the entries that are no references")
	}
	if shared == 0 {
		t.Fatal("no reference shared")
	}
}

// TestRefDesc: RefDesc gives what Ref and Dynamic give as the descriptor of every
// field, method and invokedynamic entry of the features program's pools, and ""
// for the other kinds.
func TestRefDesc(t *testing.T) {
	kinds := map[classfile.Tag]int{}
	for name, b := range compiledClasses(t) {
		f, err := classfile.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < f.Pool.Len(); i++ {
			idx := uint16(i)
			want := ""
			switch tag := f.Pool.Tag(idx); tag {
			case classfile.TagFieldref, classfile.TagMethodref, classfile.TagInterfaceMethodref:
				want = f.Pool.Ref(idx).Desc
				kinds[tag]++
			case classfile.TagInvokeDynamic, classfile.TagDynamic:
				_, _, want = f.Pool.Dynamic(idx)
				kinds[tag]++
			}
			if got := f.Pool.RefDesc(idx); got != want {
				t.Fatalf("%s #%d (%v): RefDesc %q, want %q", name, i, f.Pool.Tag(idx), got, want)
			}
		}
	}
	for _, tag := range []classfile.Tag{classfile.TagFieldref, classfile.TagMethodref, classfile.TagInterfaceMethodref, classfile.TagInvokeDynamic} {
		if kinds[tag] == 0 {
			t.Errorf("no %v entry in the features program: the test says nothing of it", tag)
		}
	}
}
