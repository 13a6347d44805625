package classpath

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"testing"
)

// Real-world samples, used when the machine has them.
const (
	javaxInjectJar = "/usr/share/maven-repo/javax/inject/javax.inject/1/javax.inject-1.jar"
	smallJmod      = jdk17Jmods + "/jdk.internal.vm.compiler.jmod"
)

func addFileSeed(f *testing.F, path string) {
	if data, err := os.ReadFile(path); err == nil {
		f.Add(data)
	}
}

// FuzzJar feeds arbitrary bytes to the jar and jmod readers; they must not
// panic or hang, and what they return must be consistent.
func FuzzJar(f *testing.F) {
	f.Add(makeZip(f, "",
		zipEntry{"META-INF/MANIFEST.MF", []byte("Manifest-Version: 1.0\nMulti-Release: true\n\n")},
		zipEntry{"a/B.class", fakeClass("base")},
		zipEntry{"META-INF/versions/11/a/B.class", fakeClass("v11")},
		zipEntry{"a/C.class", []byte("not a class")},
	))
	f.Add(makeZip(f, jmodMagic, zipEntry{"classes/x/Y.class", fakeClass("x/Y")}, zipEntry{"classes/module-info.class", fakeClass("m")}))
	addFileSeed(f, javaxInjectJar)
	addFileSeed(f, smallJmod)
	f.Fuzz(func(t *testing.T, data []byte) {
		opt := ReadOptions{Container: "fuzz", Release: 21, Workers: 2}
		read := ReadJar
		if bytes.HasPrefix(data, []byte(jmodMagic)) {
			read = ReadJmod
		}
		classes, _, _ := read(context.Background(), bytes.NewReader(data), int64(len(data)), opt)
		seen := map[string]bool{}
		for _, c := range classes {
			if checkClass(c.Data) != nil || c.Hash != hashClass(c.Data) || !validClassName(c.Name) || seen[c.Container+" "+c.Name] {
				t.Fatalf("inconsistent class %+v", c)
			}
			seen[c.Container+" "+c.Name] = true
		}
	})
}

// FuzzImage feeds arbitrary bytes to the jimage reader, through both entry
// points, and calls every accessor.
func FuzzImage(f *testing.F) {
	f.Add(writeImage(binary.LittleEndian, tinyImageResources()))
	f.Add(writeImage(binary.BigEndian, tinyImageResources()))
	f.Add(writeImage(binary.LittleEndian, []testResource{
		{name: "/java.base/java/lang/Object.class", data: fakeClass("java/lang/Object")},
		{name: "/java.base/java/lang/Zipped.class", data: []byte("compressed"), compressed: true},
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		if im, err := OpenImage(bytes.NewReader(data), int64(len(data))); err == nil {
			exerciseImage(t, im)
		}
		im, err := ParseImage(data)
		if err != nil {
			return
		}
		exerciseImage(t, im)
		classes, _, err := ReadImage(context.Background(), im, ReadOptions{Container: "fuzz", Workers: 2})
		if err != nil {
			t.Fatalf("ReadImage without cancellation: %v", err)
		}
		for _, c := range classes {
			if checkClass(c.Data) != nil || c.Hash != hashClass(c.Data) {
				t.Fatalf("inconsistent class %+v", c)
			}
		}
	})
}

func exerciseImage(t *testing.T, im *Image) {
	res, _ := im.Resources()
	for _, r := range res {
		if got, ok := im.Find(r.Name); ok && got.Name != r.Name {
			t.Fatalf("Find(%q) returned %q", r.Name, got.Name)
		}
		if b, err := im.Data(r); err == nil && int64(len(b)) != r.Size {
			t.Fatalf("Data(%q): %d bytes, want %d", r.Name, len(b), r.Size)
		}
	}
	im.Find("/java.base/java/lang/Object.class")
}
