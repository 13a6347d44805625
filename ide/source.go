package ide

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/jcg-lsp/jcg-lsp/ide/javasrc"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/fspath"
)

// sourceIndex connects source files and classes: a file holds the classes whose
// package and SourceFile attribute match its package declaration and name.
type sourceIndex struct {
	roots   []string
	classes map[string][]*hierarchy.Class // source path -> classes compiled from it
	pathOf  map[int32]string              // class ID -> source path
	// A document's path comes from the editor's URI, which on a case-insensitive
	// file system may spell it otherwise than the walk of the source roots did.
	paths    fspath.Flavor
	spelling map[string]string // paths.Key(source path) -> source path
}

func buildSourceIndex(ctx context.Context, roots []string, h *hierarchy.Hierarchy, fl fspath.Flavor) *sourceIndex {
	si := &sourceIndex{roots: roots, classes: map[string][]*hierarchy.Class{}, pathOf: map[int32]string{}, paths: fl, spelling: map[string]string{}}
	byKey := map[string]string{}
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || ctx.Err() != nil {
				return nil
			}
			if d.IsDir() {
				if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".java") {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			pkg := strings.ReplaceAll(javasrc.PackageOf(src), ".", "/")
			key := filepath.Base(p)
			if pkg != "" {
				key = pkg + "/" + key
			}
			if _, dup := byKey[key]; !dup {
				byKey[key] = p
			}
			return nil
		})
	}
	for _, c := range h.Classes() {
		if c.Phantom || h.File(c) == nil || c.Origin == hierarchy.JDK {
			continue
		}
		key := sourceName(h, c)
		if pkg := c.Package(); pkg != "" {
			key = pkg + "/" + key
		}
		if p, ok := byKey[key]; ok {
			si.classes[p] = append(si.classes[p], c)
			si.pathOf[c.ID] = p
			si.spelling[fl.Key(p)] = p
		}
	}
	return si
}

// classesOf returns the classes compiled from the source file at path, however
// the file system lets it be spelled.
func (si *sourceIndex) classesOf(path string) []*hierarchy.Class {
	if cs, ok := si.classes[path]; ok {
		return cs
	}
	return si.classes[si.spelling[si.paths.Key(path)]]
}

// spellingOf returns a source file's path as the walk of the source roots spelt it,
// however the file system lets the editor spell it.
func (si *sourceIndex) spellingOf(path string) string {
	if _, ok := si.classes[path]; ok {
		return path
	}
	if p, ok := si.spelling[si.paths.Key(path)]; ok {
		return p
	}
	return path
}

// sourceName is the name of the file a class was compiled from: its SourceFile
// attribute, or the top-level class's name when it has none.
func sourceName(h *hierarchy.Hierarchy, c *hierarchy.Class) string {
	if f := h.File(c); f != nil && f.SourceFile != "" {
		return f.SourceFile
	}
	top := h.TopLevel(c).Name
	top = top[strings.LastIndexByte(top, '/')+1:]
	if i := strings.IndexByte(top, '$'); i > 0 {
		top = top[:i]
	}
	return top + ".java"
}

// Documents holds the text of the files open in the editor: for those the editor's
// text, not the file on disk, is what positions refer to.
type Documents struct {
	mu   sync.Mutex
	open map[string]*document // by path
	// parsed caches the scanned structure of files by path, keyed by content hash.
	parsed sync.Map // path -> *parsedFile
}

// NewDocuments returns an empty set of open documents.
func NewDocuments() *Documents { return &Documents{open: map[string]*document{}} }

// Open sets the editor's text of a file (opened or changed).
func (d *Documents) Open(path string, version int32, text []byte) {
	d.mu.Lock()
	d.open[path] = &document{version: version, text: text}
	d.mu.Unlock()
}

// Close forgets the editor's text of a file: the file on disk counts again.
func (d *Documents) Close(path string) {
	d.mu.Lock()
	delete(d.open, path)
	d.mu.Unlock()
}

// OpenPaths returns the paths of the files open in the editor.
func (d *Documents) OpenPaths() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.open))
	for p := range d.open {
		out = append(out, p)
	}
	return out
}

type document struct {
	version int32
	text    []byte
}

type parsedFile struct {
	hash uint64
	f    *javasrc.File
}

// text returns the current text of a file: the editor's if it is open, else the
// file on disk.
func (d *Documents) text(path string) ([]byte, int32, bool, error) {
	d.mu.Lock()
	doc := d.open[path]
	d.mu.Unlock()
	if doc != nil {
		return doc.text, doc.version, true, nil
	}
	b, err := os.ReadFile(path)
	return b, 0, false, err
}

// parse returns the scanned structure of a file's current text.
func (d *Documents) parse(path string) (*javasrc.File, uint64, error) {
	text, _, _, err := d.text(path)
	if err != nil {
		return nil, 0, err
	}
	h := xxhash.Sum64(text)
	if v, ok := d.parsed.Load(path); ok && v.(*parsedFile).hash == h {
		return v.(*parsedFile).f, h, nil
	}
	f := javasrc.Parse(text)
	d.parsed.Store(path, &parsedFile{hash: h, f: f})
	return f, h, nil
}

// fileMap maps the declarations and call tokens of one source file to the methods and
// call instructions of the classes compiled from it. It is computed once per (index,
// file text).
type fileMap struct {
	path string
	hash uint64
	f    *javasrc.File
	ix   *index.Index
	h    *hierarchy.Hierarchy

	typeClass   map[*javasrc.Type]*hierarchy.Class
	classType   map[int32]*javasrc.Type
	codeMethods map[*javasrc.Code][]*hierarchy.Method
	methodCode  map[int32]*javasrc.Code
	lineCalls   map[int][]int // 0-based line -> indices into f.Calls
}

// fileMap returns the mapping of a source file, or nil when it is not a source of
// the index's classes or cannot be read.
func (s *Session) fileMap(snap *Snapshot, path string) *fileMap {
	classes := sourcesOf(snap).classesOf(path)
	if len(classes) == 0 {
		return nil
	}
	f, h, err := s.Docs.parse(path)
	if err != nil {
		return nil
	}
	files := snap.Derived(fileMapsKey{}, func() any { return new(sync.Map) }).(*sync.Map) // source path -> *fileMap
	if v, ok := files.Load(path); ok && v.(*fileMap).hash == h {
		return v.(*fileMap)
	}
	fm := newFileMap(snap.Index(), path, f, h, classes)
	files.Store(path, fm)
	return fm
}

// fileMapsKey is the Snapshot.Derived key of the file maps of an index.
type fileMapsKey struct{}

// sourceIndexKey is the Snapshot.Derived key of the source index of an index.
type sourceIndexKey struct{}

// sourcesOf returns the mapping between the source files of a snapshot's project and
// its classes, built once per index.
func sourcesOf(snap *Snapshot) *sourceIndex {
	return snap.Derived(sourceIndexKey{}, func() any {
		return buildSourceIndex(context.Background(), snap.Project.SourceRoots, snap.Hierarchy(), fspath.Host())
	}).(*sourceIndex)
}

func newFileMap(ix *index.Index, path string, f *javasrc.File, h uint64, classes []*hierarchy.Class) *fileMap {
	fm := &fileMap{
		path: path, hash: h, f: f, ix: ix, h: ix.Hierarchy(),
		typeClass:   map[*javasrc.Type]*hierarchy.Class{},
		classType:   map[int32]*javasrc.Type{},
		codeMethods: map[*javasrc.Code][]*hierarchy.Method{},
		methodCode:  map[int32]*javasrc.Code{},
		lineCalls:   map[int][]int{},
	}
	fm.mapTypes(classes)
	lambdas := fm.mapLambdas()
	for _, c := range f.Codes {
		var ms []*hierarchy.Method
		if c.Kind == javasrc.Lambda {
			if m := lambdas[c]; m != nil {
				ms = []*hierarchy.Method{m}
			}
		} else {
			ms = fm.declMethods(c)
		}
		fm.codeMethods[c] = ms
		for _, m := range ms {
			// A constructor's own declaration names it better than the field
			// initialisers copied into it.
			if prev, ok := fm.methodCode[m.ID]; !ok || (prev.Kind == javasrc.FieldInit || prev.Kind == javasrc.Initializer) && c.Kind == javasrc.Constructor {
				fm.methodCode[m.ID] = c
			}
		}
	}
	for i, c := range f.Calls {
		l := int(c.Tok.Line)
		fm.lineCalls[l] = append(fm.lineCalls[l], i)
	}
	return fm
}

// mapTypes maps source types to classes: named ones by binary name, local and
// anonymous ones among the classes javac nested in the same class, in javac's
// numbering order, checked against their line numbers.
func (fm *fileMap) mapTypes(classes []*hierarchy.Class) {
	byName := map[string]*hierarchy.Class{}
	for _, c := range classes {
		byName[c.Name] = c
	}
	claimed := map[int32]bool{}
	for _, t := range fm.f.Types {
		var c *hierarchy.Class
		if name := fm.f.BinaryName(t); name != "" {
			c = byName[name]
		} else if outer := fm.typeClass[t.Outer]; outer != nil {
			c = fm.nestedClass(t, outer, classes, claimed)
		}
		if c != nil {
			claimed[c.ID] = true
			fm.typeClass[t] = c
			fm.classType[c.ID] = t
		}
	}
}

func (fm *fileMap) nestedClass(t *javasrc.Type, outer *hierarchy.Class, classes []*hierarchy.Class, claimed map[int32]bool) *hierarchy.Class {
	var cands []*hierarchy.Class
	for _, c := range classes {
		if c.Outer != outer || claimed[c.ID] {
			continue
		}
		switch {
		case t.Anonymous && c.Nesting == hierarchy.Anonymous:
		case t.Local && c.Nesting == hierarchy.Local && localName(c.Name) == t.Name:
		default:
			continue
		}
		cands = append(cands, c)
	}
	slices.SortFunc(cands, func(a, b *hierarchy.Class) int { return localIndex(a.Name) - localIndex(b.Name) })
	first := int32(fm.f.LineOf(t.NameTok.Off)) + 1
	last := int32(fm.f.NumLines())
	if t.BodyEnd >= 0 {
		last = int32(fm.f.LineOf(t.BodyEnd)) + 1
	}
	for _, c := range cands {
		if lo, hi := fm.classSpan(c); lo < 0 || lo >= first && hi <= last {
			return c
		}
	}
	if len(cands) > 0 {
		return cands[0]
	}
	return nil
}

// localName returns the declared name of a local class: "Local" for "p/A$1Local".
func localName(name string) string {
	i := strings.LastIndexByte(name, '$')
	s := name[i+1:]
	return strings.TrimLeft(s, "0123456789")
}

// localIndex returns javac's number of a local or anonymous class: 2 for "p/A$2" and
// "p/A$2Local".
func localIndex(name string) int {
	s := name[strings.LastIndexByte(name, '$')+1:]
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// classSpan returns the lines the code of a class's methods spans, (-1, -1) without
// line numbers.
func (fm *fileMap) classSpan(c *hierarchy.Class) (lo, hi int32) {
	lo, hi = -1, -1
	for _, m := range c.Methods {
		a, b := span(fm.ix, m)
		if a < 0 {
			continue
		}
		if lo < 0 || a < lo {
			lo = a
		}
		if b > hi {
			hi = b
		}
	}
	return lo, hi
}

// span returns the first and last source lines of a method's code, (-1, -1) when it
// has none.
func span(ix *index.Index, m *hierarchy.Method) (int32, int32) {
	if f := ix.Facts(m); f != nil {
		return f.FirstLine, f.LastLine
	}
	return -1, -1
}

// lines returns the 1-based first and last lines of a construct.
func (fm *fileMap) lines(c *javasrc.Code) (int32, int32) {
	return int32(fm.f.LineOf(c.Start)) + 1, int32(fm.f.LineOf(c.End)) + 1
}

// declMethods returns the methods a method, constructor or initialiser compiles into.
func (fm *fileMap) declMethods(code *javasrc.Code) []*hierarchy.Method {
	c := fm.typeClass[code.Type]
	if c == nil {
		return nil
	}
	first, last := fm.lines(code)
	switch code.Kind {
	case javasrc.Initializer, javasrc.FieldInit:
		if code.Static {
			if m := c.Method("<clinit>", "()V"); m != nil {
				return []*hierarchy.Method{m}
			}
			return nil
		}
		var all, containing []*hierarchy.Method
		for _, m := range c.Methods {
			if m.Name != "<init>" {
				continue
			}
			all = append(all, m)
			if lo, hi := span(fm.ix, m); lo >= 0 && lo <= first && hi >= last {
				containing = append(containing, m)
			}
		}
		if len(containing) > 0 {
			return containing
		}
		return all
	}
	name := code.Name
	if code.Kind == javasrc.Constructor {
		name = "<init>"
	}
	tvars := fm.typeVars(code)
	var best []*hierarchy.Method
	bestScore := -1
	for _, m := range c.Methods {
		if m.Name != name || m.Access&(classfile.AccBridge|classfile.AccSynthetic) != 0 {
			continue
		}
		score := paramsScore(code.Params, m.Desc, name == "<init>", tvars)
		switch {
		case score > bestScore:
			best, bestScore = []*hierarchy.Method{m}, score
		case score == bestScore && score >= 0:
			best = append(best, m)
		}
	}
	if len(best) > 1 {
		// Overloads the parameter types cannot tell apart (type variables): the
		// line numbers can.
		var in []*hierarchy.Method
		for _, m := range best {
			if lo, hi := span(fm.ix, m); lo >= first && hi <= last {
				in = append(in, m)
			}
		}
		if len(in) > 0 {
			best = in
		}
		best = best[:1]
	}
	return best
}

// typeVars returns the type variables in scope of a declaration: their erasure is
// not known from the source, so they match any reference type.
func (fm *fileMap) typeVars(code *javasrc.Code) map[string]bool {
	vars := map[string]bool{}
	for _, v := range code.TypeParams {
		vars[v] = true
	}
	for t := code.Type; t != nil; t = t.Outer {
		for _, v := range t.TypeParams {
			vars[v] = true
		}
		if t.Code != nil {
			for _, v := range t.Code.TypeParams {
				vars[v] = true
			}
		}
	}
	return vars
}

// paramsScore says how well declared parameters match a descriptor: -1 when they
// cannot, else a higher score for more exact matches. Constructors of inner, local,
// anonymous and enum classes have synthetic parameters around the declared ones
// (outer instance, captured variables, enum name and ordinal), so for them the
// declared parameters may match any window of the descriptor.
func paramsScore(ps []javasrc.Param, desc string, ctor bool, tvars map[string]bool) int {
	dps, _, err := classfile.ParseMethodDescriptor(desc)
	if err != nil {
		return -1
	}
	if len(dps) != len(ps) && (!ctor || len(dps) < len(ps)) {
		return -1
	}
	best := -1
	for off := 0; off+len(ps) <= len(dps); off++ {
		score := 0
		for i, p := range ps {
			s := paramScore(p, dps[off+i], tvars)
			if s < 0 {
				score = -1
				break
			}
			score += s
		}
		// Prefer the window javac uses most: declared parameters right after a
		// leading outer instance, or at the start.
		if score >= 0 && score*4+3-min(off, 3) > best {
			best = score*4 + 3 - min(off, 3)
		}
		if !ctor {
			break
		}
	}
	return best
}

var primitiveNames = map[byte]string{'I': "int", 'J': "long", 'Z': "boolean", 'B': "byte", 'C': "char", 'S': "short", 'F': "float", 'D': "double", 'V': "void"}

func paramScore(p javasrc.Param, d string, tvars map[string]bool) int {
	dims := 0
	for dims < len(d) && d[dims] == '[' {
		dims++
	}
	base := d[dims:]
	var name string
	if base != "" && base[0] == 'L' {
		n := strings.TrimSuffix(base[1:], ";")
		n = n[strings.LastIndexByte(n, '/')+1:]
		name = n[strings.LastIndexByte(n, '$')+1:]
	} else if base != "" {
		name = primitiveNames[base[0]]
	}
	if tvars[p.Type] {
		// A type variable erases to its bound: some class, possibly with fewer
		// dimensions than written (T[] with T extends Object[] is rare enough).
		if base != "" && base[0] == 'L' && dims >= p.Dims {
			return 1
		}
		return -1
	}
	if dims != p.Dims {
		return -1
	}
	if name == p.Type {
		return 2
	}
	return -1
}

// mapLambdas maps lambda constructs to their synthetic lambda$ methods. javac numbers
// a class's lambda methods in post-order (inner lambdas first, siblings in source
// order) and names them after the enclosing method ("new" for constructors and
// instance initialisers, "static" for static ones); each guess is checked against
// the method's line numbers.
func (fm *fileMap) mapLambdas() map[*javasrc.Code]*hierarchy.Method {
	out := map[*javasrc.Code]*hierarchy.Method{}
	byType := map[*javasrc.Type][]*javasrc.Code{}
	for _, c := range fm.f.Codes {
		if c.Kind == javasrc.Lambda {
			byType[c.Type] = append(byType[c.Type], c)
		}
	}
	for t, ls := range byType {
		cls := fm.typeClass[t]
		if cls == nil {
			continue
		}
		var ms []*hierarchy.Method
		for _, m := range cls.Methods {
			if strings.HasPrefix(m.Name, "lambda$") {
				ms = append(ms, m)
			}
		}
		slices.SortFunc(ms, func(a, b *hierarchy.Method) int { return lambdaIndex(a.Name) - lambdaIndex(b.Name) })
		sort.SliceStable(ls, func(i, j int) bool {
			if ls[i].End != ls[j].End {
				return ls[i].End < ls[j].End
			}
			return ls[i].Start > ls[j].Start
		})
		used := make([]bool, len(ms))
		next := 0
		fits := func(l *javasrc.Code, m *hierarchy.Method) bool {
			if !strings.HasPrefix(m.Name, "lambda$"+enclosingName(l)+"$") {
				return false
			}
			first, last := fm.lines(l)
			lo, hi := span(fm.ix, m)
			return lo < 0 || lo >= first && hi <= last
		}
		for _, l := range ls {
			found := -1
			for i := next; i < len(ms); i++ {
				if !used[i] && fits(l, ms[i]) {
					found = i
					break
				}
			}
			if found < 0 {
				for i := range ms {
					if !used[i] && fits(l, ms[i]) {
						found = i
						break
					}
				}
			}
			if found >= 0 {
				used[found] = true
				next = found + 1
				out[l] = ms[found]
			}
		}
	}
	return out
}

// enclosingName is the middle part of javac's lambda method names for a lambda.
func enclosingName(l *javasrc.Code) string {
	c := l
	for c.Parent != nil {
		c = c.Parent
	}
	switch c.Kind {
	case javasrc.Method:
		return c.Name
	case javasrc.Lambda:
		return "lambda"
	}
	if c.Static {
		return "static"
	}
	return "new"
}

// lambdaIndex returns the trailing number of a lambda method name ("lambda$m$3").
func lambdaIndex(name string) int {
	n, err := strconv.Atoi(name[strings.LastIndexByte(name, '$')+1:])
	if err != nil {
		return 1 << 30
	}
	return n
}

// hasMethod reports whether code compiles into m.
func (fm *fileMap) hasMethod(code *javasrc.Code, m *hierarchy.Method) bool {
	for _, x := range fm.codeMethods[code] {
		if x == m {
			return true
		}
	}
	return false
}

// callKey groups the call instructions that compete for the same tokens on a line;
// the n-th instruction of a group is the n-th matching token. "" means the
// instruction has no token of its own (string concatenation, synthetic accessors).
func callKey(c *facts.Call) string {
	if c.Op == bytecode.Invokedynamic {
		if c.Indy != nil && c.Indy.Bootstrap.Class == "java/lang/invoke/LambdaMetafactory" {
			return "λ"
		}
		return ""
	}
	if strings.HasPrefix(c.Ref.Name, "access$") {
		return ""
	}
	if c.Ref.Name == "<init>" {
		return "<init>"
	}
	return c.Ref.Name
}

// tokenMatches reports whether a call token can be the token of instruction c of m.
func tokenMatches(h *hierarchy.Hierarchy, m *hierarchy.Method, c *facts.Call, t *javasrc.Call) bool {
	switch callKey(c) {
	case "":
		return false
	case "λ":
		return t.Kind == javasrc.CallLambda || t.Kind == javasrc.CallMethodRef
	case "<init>":
		ref := h.Class(c.Ref.Class)
		switch t.Kind {
		case javasrc.CallNew:
			return ref == nil || ref.Nesting == hierarchy.Anonymous || t.Name == simpleName(c.Ref.Class)
		case javasrc.CallThis:
			return m.Name == "<init>" && c.Ref.Class == m.Class.Name
		case javasrc.CallSuper:
			return m.Name == "<init>" && m.Class.Super != nil && c.Ref.Class == m.Class.Super.Name
		case javasrc.CallEnumConst:
			return m.Name == "<clinit>" && (c.Ref.Class == m.Class.Name || ref != nil && ref.Outer == m.Class)
		}
		return false
	}
	return t.Kind == javasrc.CallMethod && t.Name == c.Ref.Name
}

// simpleName returns the simple name of a class: "Entry" for "java/util/Map$Entry".
func simpleName(internal string) string {
	s := internal[strings.LastIndexByte(internal, '/')+1:]
	return s[strings.LastIndexByte(s, '$')+1:]
}

// callToken finds the token of call instruction k of method m: the n-th token on the
// instruction's line that matches it, where the instruction is the n-th of its kind
// on that line, counting only tokens of code that compiles into m.
func (fm *fileMap) callToken(m *hierarchy.Method, k int) (javasrc.Token, bool) {
	mf := fm.ix.Facts(m)
	if mf == nil || k < 0 || k >= len(mf.Calls) || mf.Calls[k].Line <= 0 {
		return javasrc.Token{}, false
	}
	h := fm.h
	c := &mf.Calls[k]
	key := callKey(c)
	if key == "" {
		return javasrc.Token{}, false
	}
	ord := 0
	for j := 0; j < k; j++ {
		if mf.Calls[j].Line == c.Line && callKey(&mf.Calls[j]) == key {
			ord++
		}
	}
	line := int(c.Line) - 1
	var own, any []javasrc.Token
	for _, i := range fm.lineCalls[line] {
		t := &fm.f.Calls[i]
		if !tokenMatches(h, m, c, t) {
			continue
		}
		any = append(any, t.Tok)
		if t.Code != nil && fm.hasMethod(t.Code, m) {
			own = append(own, t.Tok)
		}
	}
	toks := own
	if len(toks) == 0 {
		toks = any
	}
	if len(toks) == 0 {
		return javasrc.Token{}, false
	}
	return toks[min(ord, len(toks)-1)], true
}

// callAt finds the call instruction whose token is at off: its method and index.
func (fm *fileMap) callAt(off int32) (*hierarchy.Method, int, *javasrc.Call) {
	t := fm.f.CallAt(off)
	if t == nil || t.Code == nil {
		return nil, -1, t
	}
	for _, m := range fm.codeMethods[t.Code] {
		mf := fm.ix.Facts(m)
		if mf == nil {
			continue
		}
		for k := range mf.Calls {
			if mf.Calls[k].Line != t.Tok.Line+1 {
				continue
			}
			if tok, ok := fm.callToken(m, k); ok && tok.Off == t.Tok.Off {
				return m, k, t
			}
		}
	}
	return nil, -1, t
}

// methodsAt returns the methods whose code is at off: the declaration named there,
// else the innermost construct (a lambda body maps to its lambda method).
func (fm *fileMap) methodsAt(off int32) []*hierarchy.Method {
	if d := fm.f.DeclAt(off); d != nil {
		return fm.codeMethods[d]
	}
	if c := fm.f.CodeAt(off); c != nil {
		return fm.codeMethods[c]
	}
	return nil
}
