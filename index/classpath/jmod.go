package classpath

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"strings"
)

// jmodMagic starts every .jmod file: "JM", major version 1, minor 0. A zip
// follows, with offsets relative to its own start.
const jmodMagic = "JM\x01\x00"

// jmodClasses is the section of a jmod holding class files; the others
// (bin/, conf/, lib/, legal/, ...) hold native code and resources.
const jmodClasses = "classes/"

// ReadJmod lists the classes of the .jmod file held in r. The module name
// is taken from opt.Module: jlink names jmod files after their module.
func ReadJmod(ctx context.Context, r io.ReaderAt, size int64, opt ReadOptions) ([]*Class, []Warning, error) {
	var m [4]byte
	if size < 4 {
		return nil, nil, &FormatError{Offset: 0, Err: fmt.Errorf("not a jmod file (%d bytes)", size)}
	}
	if _, err := r.ReadAt(m[:], 0); err != nil || string(m[:]) != jmodMagic {
		return nil, nil, &FormatError{Offset: 0, Err: fmt.Errorf("not a jmod file (header %q)", m[:])}
	}
	return readZip(ctx, io.NewSectionReader(r, 4, size-4), size-4, 4, opt, true, newNestTree(size-4), 0)
}

func pickJmodEntries(zr *zip.Reader, w *warnList) []pick {
	var picks []pick
	seen := map[string]bool{}
	for _, f := range zr.File {
		path, ok := strings.CutPrefix(f.Name, jmodClasses)
		if !ok || !strings.HasSuffix(path, ".class") {
			continue
		}
		name := strings.TrimSuffix(path, ".class")
		switch {
		case skipEntry(name):
		case !validClassName(name):
			w.add(f.Name, dataOffset(f), fmt.Errorf("invalid class name %q", name))
		case seen[name]:
			w.add(f.Name, dataOffset(f), fmt.Errorf("duplicate entry, the first one is used"))
		default:
			seen[name] = true
			picks = append(picks, pick{f: f, name: name})
		}
	}
	return picks
}
