package classpath

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// testResource is one entry for writeImage.
type testResource struct {
	name string // full name, "/module/parent/base.ext"
	data []byte
	// compressed marks the entry as jlink --compress would, with data as
	// the stored bytes and an uncompressed size twice as large.
	compressed bool
}

// writeImage builds a jimage the way jlink lays one out (header, perfect-hash
// redirect table, offsets, locations, strings, content), so that the reader
// can be tested on small, known images and the fuzzer gets a valid seed.
func writeImage(order binary.AppendByteOrder, res []testResource) []byte {
	var strs bytes.Buffer
	strOff := map[string]uint64{}
	addStr := func(s string) uint64 {
		if off, ok := strOff[s]; ok {
			return off
		}
		off := uint64(strs.Len())
		strs.WriteString(s)
		strs.WriteByte(0)
		strOff[s] = off
		return off
	}
	addStr("") // offset 0 means "absent", as in jlink's ImageStringsWriter
	addStr("class")

	var content, locs bytes.Buffer
	locs.WriteByte(0) // jlink starts the table with an empty location
	locOff := make([]uint32, len(res))
	for i, r := range res {
		module, parent, base, ext := splitImageName(r.name)
		var loc location
		if module != "" {
			loc[attrModule] = addStr(module)
		}
		if parent != "" {
			loc[attrParent] = addStr(parent)
		}
		loc[attrBase] = addStr(base)
		if ext != "" {
			loc[attrExtension] = addStr(ext)
		}
		loc[attrOffset] = uint64(content.Len())
		loc[attrUncompressed] = uint64(len(r.data))
		if r.compressed {
			loc[attrCompressed] = uint64(len(r.data))
			loc[attrUncompressed] = 2 * uint64(len(r.data))
		}
		content.Write(r.data)
		locOff[i] = uint32(locs.Len())
		for kind := attrModule; kind < attrCount; kind++ {
			v := loc[kind]
			if v == 0 {
				continue
			}
			n := 1
			for v>>(8*n) != 0 {
				n++
			}
			locs.WriteByte(byte(kind<<3 | (n - 1)))
			for j := n - 1; j >= 0; j-- {
				locs.WriteByte(byte(v >> (8 * j)))
			}
		}
		locs.WriteByte(attrEnd)
	}

	redirect, slots := perfectHash(res)
	n := len(res)
	var out bytes.Buffer
	put := func(v uint32) { out.Write(order.AppendUint32(nil, v)) }
	put(imageMagic)
	put(imageMajor<<16 | imageMinor)
	put(0) // flags
	put(uint32(n))
	put(uint32(n))
	put(uint32(locs.Len()))
	put(uint32(strs.Len()))
	for _, v := range redirect {
		put(uint32(v))
	}
	for _, i := range slots {
		put(locOff[i])
	}
	out.Write(locs.Bytes())
	out.Write(strs.Bytes())
	out.Write(content.Bytes())
	return out.Bytes()
}

func splitImageName(name string) (module, parent, base, ext string) {
	if rest, ok := strings.CutPrefix(name, "/"); ok {
		module, name, _ = strings.Cut(rest, "/")
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		parent, name = name[:i], name[i+1:]
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name, ext = name[:i], name[i+1:]
	}
	return module, parent, name, ext
}

// perfectHash builds the redirect table as jlink's PerfectHashBuilder does:
// buckets by the default hash; crowded buckets get a seed that spreads their
// names to free slots, single names a direct (complemented) slot index.
// slots[s] is the resource stored in slot s.
func perfectHash(res []testResource) (redirect []int32, slots []int) {
	n := len(res)
	redirect = make([]int32, n)
	slots = make([]int, n)
	used := make([]bool, n)
	buckets := make([][]int, n)
	for i, r := range res {
		b := imageHash(r.name, hashMultiplier) % uint32(n)
		buckets[b] = append(buckets[b], i)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(buckets[b]) - len(buckets[a]) })
	for _, b := range order {
		members := buckets[b]
		if len(members) <= 1 {
			continue
		}
	seeds:
		for seed := uint32(1); ; seed++ {
			var taken []int
			for _, m := range members {
				s := int(imageHash(res[m].name, seed) % uint32(n))
				if used[s] || slices.Contains(taken, s) {
					continue seeds
				}
				taken = append(taken, s)
			}
			for k, s := range taken {
				used[s] = true
				slots[s] = members[k]
			}
			redirect[b] = int32(seed)
			break
		}
	}
	free := 0
	for _, b := range order {
		if len(buckets[b]) != 1 {
			continue
		}
		for used[free] {
			free++
		}
		used[free] = true
		slots[free] = buckets[b][0]
		redirect[b] = int32(-free - 1)
	}
	return redirect, slots
}

// fakeClass returns bytes that pass checkClass and differ per name.
func fakeClass(name string) []byte {
	return append([]byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 0}, name...)
}

func tinyImageResources() []testResource {
	return []testResource{
		{name: "/java.base/java/lang/Object.class", data: fakeClass("java/lang/Object")},
		{name: "/java.base/java/lang/String.class", data: fakeClass("java/lang/String")},
		{name: "/java.base/module-info.class", data: fakeClass("module-info")},
		{name: "/m.x/p/q/R$1.class", data: fakeClass("p/q/R$1")},
		{name: "/m.x/p/q/r.properties", data: []byte("k=v\n")},
		{name: "/m.x/p/Ünï.class", data: fakeClass("p/Ünï")},
		{name: "/modules/m.x", data: nil},
	}
}

func TestImageRoundTrip(t *testing.T) {
	for _, order := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
		t.Run(order.String(), func(t *testing.T) {
			want := tinyImageResources()
			img := writeImage(order, want)
			for _, open := range []struct {
				name string
				fn   func() (*Image, error)
			}{
				{"ParseImage", func() (*Image, error) { return ParseImage(img) }},
				{"OpenImage", func() (*Image, error) { return OpenImage(bytes.NewReader(img), int64(len(img))) }},
			} {
				im, err := open.fn()
				if err != nil {
					t.Fatalf("%s: %v", open.name, err)
				}
				got, errs := im.Resources()
				if len(errs) > 0 {
					t.Fatalf("%s: %v", open.name, errs)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d resources, want %d", open.name, len(got), len(want))
				}
				for _, w := range want {
					r, ok := im.Find(w.name)
					if !ok {
						t.Errorf("%s: Find(%q) failed", open.name, w.name)
						continue
					}
					if m, _, _, _ := splitImageName(w.name); r.Module != m {
						t.Errorf("%s: %q: module %q, want %q", open.name, w.name, r.Module, m)
					}
					data, err := im.Data(r)
					if err != nil || !bytes.Equal(data, w.data) {
						t.Errorf("%s: Data(%q) = %q, %v; want %q", open.name, w.name, data, err, w.data)
					}
				}
				if _, ok := im.Find("/java.base/java/lang/Missing.class"); ok {
					t.Errorf("%s: found a missing resource", open.name)
				}
			}
		})
	}
}

func TestImageCompressed(t *testing.T) {
	img := writeImage(binary.LittleEndian, []testResource{
		{name: "/java.base/java/lang/Object.class", data: fakeClass("java/lang/Object")},
		{name: "/java.base/java/lang/Zipped.class", data: []byte("compressed bytes"), compressed: true},
	})
	im, err := ParseImage(img)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := im.Find("/java.base/java/lang/Zipped.class")
	if !ok {
		t.Fatal("compressed resource not found")
	}
	_, err = im.Data(r)
	if !errors.Is(err, ErrCompressed) || !strings.Contains(err.Error(), "/java.base/java/lang/Zipped.class") {
		t.Errorf("Data of a compressed resource: %v, want ErrCompressed naming the entry", err)
	}

	// Through the class path, the other class still loads.
	path := writeTemp(t, "modules", img)
	cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: path, Origin: JDK}}})
	if cp.Lookup("java/lang/Object") == nil || cp.Lookup("java/lang/Zipped") != nil {
		t.Errorf("classes: %v", names(cp))
	}
	assertWarning(t, cp, path, "/java.base/java/lang/Zipped.class", "compressed jimage resources not supported")
}

// TestHostileImage: tables that make every entry repeat expensive work must
// be rejected quickly, not hang the server.
func TestHostileImage(t *testing.T) {
	const entries = 50000
	build := func(loc, strs, content []byte, locOffset func(i int) uint32) []byte {
		var b bytes.Buffer
		for _, v := range []uint32{imageMagic, imageMajor << 16, 0, entries, entries, uint32(len(loc)), uint32(len(strs))} {
			b.Write(binary.LittleEndian.AppendUint32(nil, v))
		}
		for range entries {
			b.Write(binary.LittleEndian.AppendUint32(nil, 0)) // no redirect
		}
		for i := range entries {
			b.Write(binary.LittleEndian.AppendUint32(nil, locOffset(i)))
		}
		b.Write(loc)
		b.Write(strs)
		b.Write(content)
		return b.Bytes()
	}
	unterminated := build(
		[]byte{attrBase << 3, 0, attrEnd},
		bytes.Repeat([]byte("a"), 4<<20),
		nil, func(int) uint32 { return 0 })
	// Every entry names a different class whose content is the whole area.
	var loc, strs bytes.Buffer
	strs.WriteString("\x00class\x00m\x00")
	offs := make([]uint32, entries)
	content := fakeClass(strings.Repeat("x", 1<<20))
	for i := range entries {
		base := uint64(strs.Len())
		fmt.Fprintf(&strs, "C%d\x00", i)
		offs[i] = uint32(loc.Len())
		loc.Write([]byte{attrModule << 3, 7, attrBase<<3 | 3, byte(base >> 24), byte(base >> 16), byte(base >> 8), byte(base),
			attrExtension << 3, 1, attrUncompressed<<3 | 3})
		loc.Write(binary.BigEndian.AppendUint32(nil, uint32(len(content))))
		loc.WriteByte(attrEnd)
	}
	shared := build(loc.Bytes(), strs.Bytes(), content, func(i int) uint32 { return offs[i] })

	for name, img := range map[string][]byte{"unterminated strings": unterminated, "shared content": shared} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			im, err := ParseImage(img)
			if err != nil {
				t.Fatal(err)
			}
			classes, warns, err := ReadImage(context.Background(), im, ReadOptions{Container: "hostile"})
			if err != nil || len(classes) > 1 || len(warns) == 0 {
				t.Errorf("%d classes, %d warnings, %v", len(classes), len(warns), err)
			}
			im.Resources()
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
