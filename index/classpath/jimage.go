package classpath

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// The jimage format (lib/modules of JDK 9+), as written by jlink and read by
// jdk.internal.jimage.BasicImageReader:
//
//	header     7 × u4: magic 0xCAFEDADA, version major<<16|minor, flags,
//	           resource count, table length, locations size, strings size
//	redirect   table length × s4  perfect-hash redirect for lookups by name
//	offsets    table length × u4  offset of each resource's location
//	locations  attribute streams: byte kind<<3|(len-1), then len bytes of a
//	           big-endian value; kind 0 ends the stream
//	strings    NUL-terminated modified UTF-8
//	resources  content, at index size + the OFFSET attribute
//
// The header and tables are in the byte order of the machine that wrote the
// image; the magic number tells which.

const (
	imageMagic      = 0xCAFEDADA
	imageHeaderSize = 7 * 4
	imageMajor      = 1
	imageMinor      = 0
	hashMultiplier  = 0x01000193
)

// Location attribute kinds.
const (
	attrEnd = iota
	attrModule
	attrParent
	attrBase
	attrExtension
	attrOffset
	attrCompressed
	attrUncompressed
	attrCount
)

// ErrCompressed is reported for resources of images built with
// jlink --compress; decompressing them is not implemented.
var ErrCompressed = errors.New("compressed jimage resources not supported")

// FormatError reports malformed data at a byte offset of a container.
type FormatError struct {
	Entry  string // the resource concerned, "" for the container's structure
	Offset int64
	Err    error
}

func (e *FormatError) Error() string {
	if e.Entry == "" {
		return fmt.Sprintf("%v at byte %#x", e.Err, e.Offset)
	}
	return fmt.Sprintf("%s: %v at byte %#x", e.Entry, e.Err, e.Offset)
}

func (e *FormatError) Unwrap() error { return e.Err }

func formatErr(entry string, off int64, format string, args ...any) *FormatError {
	return &FormatError{Entry: entry, Offset: off, Err: fmt.Errorf(format, args...)}
}

// Image is a parsed jimage. It is safe for concurrent use.
type Image struct {
	r         io.ReaderAt
	size      int64
	data      []byte // the whole image when it is in memory, for zero-copy reads
	order     binary.ByteOrder
	tableLen  int
	redirect  []byte
	offsets   []byte
	locations []byte
	strings   []byte
	indexSize int64
	// Section offsets, only for error messages.
	locationsOff, stringsOff int64
}

// Resource is one entry of an image.
type Resource struct {
	Name   string // full name, e.g. "/java.base/java/lang/Object.class"
	Module string // e.g. "java.base"; "" for resources outside modules
	Offset int64  // byte offset of the content in the image
	Size   int64  // uncompressed size
	// CompressedSize is the stored size of a compressed resource, else 0.
	CompressedSize int64
}

// OpenImage reads the index of the image in r (size bytes). Resource
// contents are read on demand with ReadAt.
func OpenImage(r io.ReaderAt, size int64) (*Image, error) {
	var hdr [imageHeaderSize]byte
	if size < imageHeaderSize {
		return nil, formatErr("", 0, "jimage: file too short for a header (%d bytes)", size)
	}
	if n, err := r.ReadAt(hdr[:], 0); n < len(hdr) {
		return nil, &FormatError{Offset: 0, Err: fmt.Errorf("jimage: reading header: %w", err)}
	}
	im, err := parseHeader(hdr[:], size)
	if err != nil {
		return nil, err
	}
	index := make([]byte, im.indexSize)
	if n, err := r.ReadAt(index, 0); n < len(index) {
		return nil, &FormatError{Offset: 0, Err: fmt.Errorf("jimage: reading index (%d bytes): %w", im.indexSize, err)}
	}
	im.r = r
	im.setIndex(index)
	return im, nil
}

// ParseImage parses an image held in memory. Resource data returned by
// [Image.Data] are subslices of data.
func ParseImage(data []byte) (*Image, error) {
	if len(data) < imageHeaderSize {
		return nil, formatErr("", 0, "jimage: file too short for a header (%d bytes)", len(data))
	}
	im, err := parseHeader(data[:imageHeaderSize], int64(len(data)))
	if err != nil {
		return nil, err
	}
	im.r = bytes.NewReader(data)
	im.data = data
	im.setIndex(data[:im.indexSize])
	return im, nil
}

func parseHeader(hdr []byte, size int64) (*Image, error) {
	im := &Image{size: size}
	switch binary.LittleEndian.Uint32(hdr) {
	case imageMagic:
		im.order = binary.LittleEndian
	case 0xDADAFECA: // written on a big-endian machine
		im.order = binary.BigEndian
	default:
		return nil, formatErr("", 0, "jimage: bad magic %#08x", binary.BigEndian.Uint32(hdr))
	}
	u4 := func(i int) uint32 { return im.order.Uint32(hdr[4*i:]) }
	if v := u4(1); v>>16 != imageMajor || v&0xFFFF != imageMinor {
		return nil, formatErr("", 4, "jimage: unsupported version %d.%d (want %d.%d)", v>>16, v&0xFFFF, imageMajor, imageMinor)
	}
	tableLen, locSize, strSize := uint64(u4(4)), uint64(u4(5)), uint64(u4(6))
	// All u4, so this cannot overflow 64 bits.
	indexSize := imageHeaderSize + 8*tableLen + locSize + strSize
	if indexSize > uint64(size) {
		return nil, formatErr("", 16, "jimage: index of %d bytes (table length %d, locations %d, strings %d) exceeds the file size %d",
			indexSize, tableLen, locSize, strSize, size)
	}
	im.tableLen = int(tableLen)
	im.indexSize = int64(indexSize)
	im.locationsOff = imageHeaderSize + 8*int64(tableLen)
	im.stringsOff = im.locationsOff + int64(locSize)
	return im, nil
}

func (im *Image) setIndex(index []byte) {
	t := 4 * im.tableLen
	im.redirect = index[imageHeaderSize : imageHeaderSize+t]
	im.offsets = index[imageHeaderSize+t : imageHeaderSize+2*t]
	im.locations = index[im.locationsOff:im.stringsOff]
	im.strings = index[im.stringsOff:im.indexSize]
}

// NumResources returns the number of entries in the image's tables.
func (im *Image) NumResources() int { return im.tableLen }

// location is a decoded attribute stream, indexed by attribute kind.
type location [attrCount]uint64

func (im *Image) location(i int) (location, error) {
	var loc location
	off := im.order.Uint32(im.offsets[4*i:])
	errAt := func(at int, format string, args ...any) error {
		return formatErr("", im.locationsOff+int64(at), "jimage: location of resource %d: "+format, append([]any{i}, args...)...)
	}
	if uint64(off) >= uint64(len(im.locations)) {
		return loc, formatErr("", imageHeaderSize+int64(4*(im.tableLen+i)),
			"jimage: resource %d: location offset %d outside the %d-byte location table", i, off, len(im.locations))
	}
	p := im.locations[off:]
	pos := int(off)
	var seen uint16
	for {
		if len(p) == 0 {
			return loc, errAt(pos, "no end marker")
		}
		kind := p[0] >> 3
		if kind == attrEnd {
			return loc, nil
		}
		if kind >= attrCount {
			return loc, errAt(pos, "invalid attribute kind %d", kind)
		}
		// Each kind appears once in images jlink writes; refusing repeats
		// bounds the work per location whatever the table contains.
		if seen&(1<<kind) != 0 {
			return loc, errAt(pos, "attribute kind %d repeated", kind)
		}
		seen |= 1 << kind
		n := int(p[0]&7) + 1
		if 1+n > len(p) {
			return loc, errAt(pos, "attribute runs past the end of the table")
		}
		var v uint64
		for _, c := range p[1 : 1+n] {
			v = v<<8 | uint64(c)
		}
		loc[kind] = v
		p = p[1+n:]
		pos += 1 + n
	}
}

// stringAt returns the NUL-terminated string at off, scanning at most
// *budget bytes: the budget bounds the work a hostile image can cause with
// many locations pointing into one huge unterminated string.
func (im *Image) stringAt(i int, off uint64, budget *int64) ([]byte, error) {
	if off >= uint64(len(im.strings)) {
		return nil, formatErr("", im.stringsOff, "jimage: name of resource %d: string offset %d outside the %d-byte string table", i, off, len(im.strings))
	}
	errAt := func(format string, args ...any) error {
		return formatErr("", im.stringsOff+int64(off), "jimage: name of resource %d: "+format, append([]any{i}, args...)...)
	}
	if *budget <= 0 {
		return nil, errAt("names exceed the %d-byte limit for this image", im.nameLimit())
	}
	s := im.strings[off:]
	limited := int64(len(s)) > *budget
	if limited {
		s = s[:*budget]
	}
	n := bytes.IndexByte(s, 0)
	switch {
	case n < 0 && limited:
		*budget = 0
		return nil, errAt("names exceed the %d-byte limit for this image", im.nameLimit())
	case n < 0:
		*budget -= int64(len(s)) // the scan counts, or many entries could repeat it
		return nil, errAt("string not terminated")
	}
	*budget -= int64(n)
	return s[:n], nil
}

// nameLimit is the total length of names the reader is willing to build;
// the names of real images take well under 0.1% of it.
func (im *Image) nameLimit() int64 { return 16*im.size + 1<<20 }

// resource decodes resource i. modules caches the strings of module
// offsets, which repeat for every resource of a module; scratch is reused
// to build the name.
func (im *Image) resource(i int, budget *int64, modules map[uint64]string, scratch *[]byte) (Resource, error) {
	loc, err := im.location(i)
	if err != nil {
		return Resource{}, err
	}
	name := (*scratch)[:0]
	defer func() { *scratch = name[:0] }()
	var module string
	if off := loc[attrModule]; off != 0 {
		m, err := im.stringAt(i, off, budget)
		if err != nil {
			return Resource{}, err
		}
		name = append(name, '/')
		name = append(name, m...)
		name = append(name, '/')
		var ok bool
		if module, ok = modules[off]; !ok {
			module = mutf8String(m)
			if modules != nil {
				modules[off] = module
			}
		}
	}
	if off := loc[attrParent]; off != 0 {
		p, err := im.stringAt(i, off, budget)
		if err != nil {
			return Resource{}, err
		}
		name = append(name, p...)
		name = append(name, '/')
	}
	b, err := im.stringAt(i, loc[attrBase], budget)
	if err != nil {
		return Resource{}, err
	}
	name = append(name, b...)
	if off := loc[attrExtension]; off != 0 {
		e, err := im.stringAt(i, off, budget)
		if err != nil {
			return Resource{}, err
		}
		name = append(name, '.')
		name = append(name, e...)
	}
	*budget -= int64(len(name))
	r := Resource{Name: mutf8String(name), Module: module}
	stored := loc[attrUncompressed]
	if loc[attrCompressed] != 0 {
		stored = loc[attrCompressed]
	}
	avail := uint64(im.size - im.indexSize)
	if loc[attrOffset] > avail || stored > avail-loc[attrOffset] {
		return r, formatErr(r.Name, im.indexSize+int64(min(loc[attrOffset], avail)),
			"jimage: content (offset %d, %d bytes) extends past the end of the file (%d bytes of content)", loc[attrOffset], stored, avail)
	}
	if loc[attrUncompressed] > uint64(maxInt) {
		return r, formatErr(r.Name, im.indexSize+int64(loc[attrOffset]), "jimage: uncompressed size %d too large", loc[attrUncompressed])
	}
	r.Offset = im.indexSize + int64(loc[attrOffset])
	r.Size = int64(loc[attrUncompressed])
	r.CompressedSize = int64(loc[attrCompressed])
	return r, nil
}

const maxInt = int(^uint(0) >> 1)

// Resources decodes every entry of the image in table order. Entries that
// cannot be decoded are left out and reported as *FormatError values.
func (im *Image) Resources() ([]Resource, []error) {
	return im.decodeRange(0, im.tableLen, im.nameLimit(), nil)
}

// decodeRange decodes the entries [lo, hi) of the table with a name budget
// of budget bytes, keeping those for which keep (if not nil) is true.
func (im *Image) decodeRange(lo, hi int, budget int64, keep func(*Resource) bool) ([]Resource, []error) {
	modules := map[uint64]string{}
	var scratch []byte
	res := make([]Resource, 0, hi-lo)
	var errs []error
	for i := lo; i < hi; i++ {
		r, err := im.resource(i, &budget, modules, &scratch)
		if err != nil {
			errs = append(errs, err)
			if budget <= 0 {
				break // every later name would fail the same way
			}
			continue
		}
		if keep == nil || keep(&r) {
			res = append(res, r)
		}
	}
	return res, errs
}

// Find looks a resource up by full name through the image's perfect-hash
// redirect table, as the JVM does.
func (im *Image) Find(name string) (Resource, bool) {
	if im.tableLen == 0 {
		return Resource{}, false
	}
	n := uint32(im.tableLen)
	slot := imageHash(name, hashMultiplier) % n
	v := int64(int32(im.order.Uint32(im.redirect[4*slot:])))
	var i int64
	switch {
	case v < 0: // the location index, complemented
		i = -v - 1
	case v > 0: // a seed that spreads this bucket's names without collision
		i = int64(imageHash(name, uint32(v)) % n)
	default:
		return Resource{}, false
	}
	if i >= int64(n) {
		return Resource{}, false
	}
	budget := 4*int64(len(name)) + 64
	var scratch []byte
	r, err := im.resource(int(i), &budget, nil, &scratch)
	if err != nil || r.Name != name {
		return Resource{}, false
	}
	return r, true
}

// Data returns the content of r. For an image from [ParseImage] it is a
// subslice of the image, which must not be modified.
func (im *Image) Data(r Resource) ([]byte, error) {
	if r.CompressedSize != 0 {
		return nil, &FormatError{Entry: r.Name, Offset: r.Offset, Err: ErrCompressed}
	}
	if r.Offset < im.indexSize || r.Size < 0 || r.Offset > im.size || r.Size > im.size-r.Offset {
		return nil, formatErr(r.Name, r.Offset, "jimage: content (%d bytes) outside the image", r.Size)
	}
	if im.data != nil {
		end := r.Offset + r.Size
		return im.data[r.Offset:end:end], nil
	}
	b := make([]byte, r.Size)
	// ReaderAt may report io.EOF along with a complete read at the end.
	if n, err := im.r.ReadAt(b, r.Offset); n < len(b) {
		return nil, &FormatError{Entry: r.Name, Offset: r.Offset, Err: fmt.Errorf("jimage: reading content: %w", err)}
	}
	return b, nil
}

// imageHash is jdk.internal.jimage.ImageStringsReader.hashCode: FNV-like
// over the modified UTF-8 bytes, masked to a non-negative Java int.
func imageHash(s string, seed uint32) uint32 {
	h := seed
	put := func(b byte) { h = h*hashMultiplier ^ uint32(b) }
	for i := 0; i < len(s); {
		c := s[i]
		if c != 0 && c < utf8.RuneSelf {
			put(c)
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			put(c) // kept verbatim by mutf8String
			i++
			continue
		}
		i += w
		if r > 0xFFFF { // Java hashes the two UTF-16 surrogates
			r -= 0x10000
			putMUTF8(put, 0xD800+(r>>10))
			putMUTF8(put, 0xDC00+(r&0x3FF))
			continue
		}
		putMUTF8(put, r)
	}
	return h & 0x7FFFFFFF
}

func putMUTF8(put func(byte), r rune) {
	switch {
	case r != 0 && r < 0x80:
		put(byte(r))
	case r < 0x800:
		put(byte(0xC0 | r>>6))
		put(byte(0x80 | r&0x3F))
	default:
		put(byte(0xE0 | r>>12))
		put(byte(0x80 | (r>>6)&0x3F))
		put(byte(0x80 | r&0x3F))
	}
}

// mutf8String converts modified UTF-8 (the JVM's encoding: NUL as C0 80,
// supplementary characters as surrogate pairs) to a Go string. Bytes that
// are not valid modified UTF-8 are kept as they are.
func mutf8String(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < 0x80:
			out = append(out, c)
			i++
		case c&0xE0 == 0xC0 && i+1 < len(b) && b[i+1]&0xC0 == 0x80:
			out = utf8.AppendRune(out, rune(c&0x1F)<<6|rune(b[i+1]&0x3F))
			i += 2
		case c&0xF0 == 0xE0 && i+2 < len(b) && b[i+1]&0xC0 == 0x80 && b[i+2]&0xC0 == 0x80:
			r := rune(c&0x0F)<<12 | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
			i += 3
			if r >= 0xD800 && r < 0xDC00 && i+2 < len(b) && b[i] == 0xED && b[i+1]&0xF0 == 0xB0 && b[i+2]&0xC0 == 0x80 {
				lo := rune(b[i]&0x0F)<<12 | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				i += 3
			} else if r >= 0xD800 && r < 0xE000 {
				return string(b) // a lone surrogate has no UTF-8 form
			}
			out = utf8.AppendRune(out, r)
		default:
			return string(b)
		}
	}
	return string(out)
}
