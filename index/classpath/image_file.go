package classpath

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// readAll is the fallback when a file cannot be mapped.
func readAll(f *os.File, size int64) ([]byte, bool, func() error, error) {
	b, err := io.ReadAll(io.NewSectionReader(f, 0, size))
	if err != nil {
		return nil, false, nil, fmt.Errorf("reading %s: %w", f.Name(), err)
	}
	return b, false, func() error { return nil }, nil
}

// readImageFile maps a jimage and lists its classes, whose data is in the
// returned mapping; the mapping is nil when nothing stayed mapped.
func readImageFile(ctx context.Context, path string, opt ReadOptions) ([]*Class, []Warning, *mapping, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, nil, err
	}
	data, mapped, unmap, err := mapFile(f, st.Size())
	if err != nil {
		return nil, nil, nil, err
	}
	im, err := ParseImage(data)
	if err != nil {
		unmap()
		return nil, nil, nil, err
	}
	classes, warns, err := ReadImage(ctx, im, opt)
	if len(classes) == 0 {
		unmap()
		return nil, warns, nil, err
	}
	return classes, warns, newMapping(data, mapped, unmap), err
}

// imageChunk is the number of entries a worker decodes or hashes at a time;
// large enough to amortise scheduling over many small classes.
const imageChunk = 512

// ReadImage lists the classes of a jimage, in content order (jlink writes
// modules one after the other). Entry is the resource name; Name drops the
// module prefix and the .class suffix. An error is returned only when ctx
// is cancelled.
func ReadImage(ctx context.Context, im *Image, opt ReadOptions) ([]*Class, []Warning, error) {
	w := &warnList{container: opt.Container}
	workers := opt.workers()

	// Decode the index in parallel; each chunk gets its share of the name
	// budget so that the total stays bounded.
	n := im.NumResources()
	chunks := (n + imageChunk - 1) / imageChunk
	parts := make([][]Resource, chunks)
	partErrs := make([][]error, chunks)
	isClass := func(r *Resource) bool {
		m := len(r.Module)
		// Name is "/" + Module + "/" + path + ".class" unless the module
		// string had to be converted from modified UTF-8 differently.
		return m > 0 && strings.HasSuffix(r.Name, ".class") && len(r.Name) > m+1 &&
			r.Name[m+1] == '/' && r.Name[1:m+1] == r.Module
	}
	err := forEach(ctx, workers, chunks, func(c int) {
		lo, hi := c*imageChunk, min((c+1)*imageChunk, n)
		budget := im.nameLimit() * int64(hi-lo) / int64(n)
		parts[c], partErrs[c] = im.decodeRange(lo, hi, budget, isClass)
	})
	if err != nil {
		return nil, nil, err
	}
	total := 0
	for c := range parts {
		total += len(parts[c])
	}
	res := make([]Resource, 0, total)
	for c := range parts {
		res = append(res, parts[c]...)
		for _, e := range partErrs[c] {
			w.add("", -1, e)
		}
	}
	sortByOffset(res)
	// jlink never shares content between resources. Refusing overlaps keeps
	// the bytes hashed within the file size, whatever the table says.
	kept := res[:0]
	var end int64
	for _, r := range res {
		if r.Offset < end {
			w.add("", -1, &FormatError{Entry: r.Name, Offset: r.Offset, Err: fmt.Errorf("content overlaps another resource's")})
			continue
		}
		kept = append(kept, r)
		end = r.Offset + r.Size
	}
	res = kept

	classes := make([]Class, len(res))
	problems := make([]error, len(res))
	err = forEachChunk(ctx, workers, len(res), imageChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			r := &res[i]
			name := r.Name[len(r.Module)+2 : len(r.Name)-len(".class")]
			if skipEntry(name) {
				continue
			}
			if !validClassName(name) {
				problems[i] = &FormatError{Entry: r.Name, Offset: r.Offset, Err: fmt.Errorf("invalid class name %q", name)}
				continue
			}
			data, err := im.Data(*r)
			if err == nil {
				if err = checkClass(data); err != nil {
					err = &FormatError{Entry: r.Name, Offset: r.Offset, Err: err}
				}
			}
			if err != nil {
				problems[i] = err
				continue
			}
			classes[i] = Class{Name: name, Origin: opt.Origin, Container: opt.Container, Entry: r.Name,
				Module: r.Module, Hash: hashClass(data), Data: data}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	// One allocation for all the classes of the image instead of 27,000.
	out := make([]*Class, 0, len(classes))
	for i := range classes {
		switch {
		case classes[i].Data != nil:
			out = append(out, &classes[i])
		case problems[i] != nil:
			w.add("", -1, problems[i])
		}
	}
	return out, w.done(), nil
}

// sortByOffset sorts resources by content offset. Sorting packed
// offset<<20|index keys is several times faster than sorting the structs,
// which matters for the 27,000 entries of the JDK.
func sortByOffset(res []Resource) {
	const idxBits = 20
	if len(res) >= 1<<idxBits || slices.ContainsFunc(res, func(r Resource) bool { return r.Offset >= 1<<(63-idxBits) }) {
		slices.SortFunc(res, func(a, b Resource) int { return cmp.Compare(a.Offset, b.Offset) })
		return
	}
	keys := make([]uint64, len(res))
	for i, r := range res {
		keys[i] = uint64(r.Offset)<<idxBits | uint64(i)
	}
	slices.Sort(keys)
	sorted := make([]Resource, len(res))
	for i, k := range keys {
		sorted[i] = res[k&(1<<idxBits-1)]
	}
	copy(res, sorted)
}
