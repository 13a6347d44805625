package javasrc

// parser walks the token list. Every loop advances p.i or returns, so any input
// terminates; structure that cannot be recognised is skipped.
type parser struct {
	src  []byte
	toks []Token
	i    int
	file *File
}

func (p *parser) eof() bool { return p.i >= len(p.toks) }

func (p *parser) tok() Token { return p.toks[p.i] }

// isAt reports whether the token k places ahead has text s.
func (p *parser) isAt(k int, s string) bool {
	j := p.i + k
	if j < 0 || j >= len(p.toks) {
		return false
	}
	t := p.toks[j]
	return int(t.End-t.Off) == len(s) && string(p.src[t.Off:t.End]) == s
}

func (p *parser) is(s string) bool { return p.isAt(0, s) }

func (p *parser) identAt(k int) bool {
	j := p.i + k
	return j >= 0 && j < len(p.toks) && p.toks[j].Kind == TokIdent
}

func (p *parser) text(t Token) string { return string(p.src[t.Off:t.End]) }

// prevEnd returns the end of the token before p.i.
func (p *parser) prevEnd() int32 {
	if p.i == 0 {
		return 0
	}
	return p.toks[min(p.i, len(p.toks))-1].End
}

func (p *parser) addCall(k CallKind, t Token, c *Code) {
	p.file.Calls = append(p.file.Calls, Call{Kind: k, Name: p.text(t), Tok: t, Code: c})
}

func (p *parser) parseFile() {
	for !p.eof() {
		switch {
		case p.is("package"):
			p.i++
			var name []byte
			for !p.eof() && !p.is(";") {
				name = append(name, p.src[p.tok().Off:p.tok().End]...)
				p.i++
			}
			p.file.Package = string(name)
		case p.is("import"):
			p.i++
			var imp Import
			if p.is("static") {
				imp.Static = true
				p.i++
			}
			var name []byte
			for !p.eof() && !p.is(";") {
				name = append(name, p.src[p.tok().Off:p.tok().End]...)
				p.i++
			}
			imp.Name = string(name)
			p.file.Imports = append(p.file.Imports, imp)
		case p.is("@") && !p.isAt(1, "interface"):
			p.skipAnnotation()
		default:
			if kind, n := p.typeDeclStart(); n > 0 {
				p.typeDecl(kind, n, nil, nil, true, false)
				continue
			}
			p.i++
		}
	}
	sortCalls(p.file.Calls)
}

func sortCalls(cs []Call) {
	// Calls are appended in scanning order, which is source order except where a
	// construct is recorded after its contents; an insertion sort fixes the few.
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Tok.Off < cs[j-1].Tok.Off; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// typeDeclStart recognises the keyword(s) that start a type declaration at p.i and
// returns the kind and the number of keyword tokens (0 when there is none).
func (p *parser) typeDeclStart() (TypeKind, int) {
	if p.eof() || (p.i > 0 && p.isAt(-1, ".")) { // Foo.class, a.record
		return 0, 0
	}
	switch {
	case p.is("class") && p.identAt(1):
		return Class, 1
	case p.is("interface") && p.identAt(1):
		return Interface, 1
	case p.is("@") && p.isAt(1, "interface") && p.identAt(2):
		return Annotation, 2
	case p.is("enum") && p.identAt(1):
		return Enum, 1
	case p.is("record") && p.identAt(1) && (p.isAt(2, "(") || p.isAt(2, "<")):
		return Record, 1
	}
	return 0, 0
}

// typeDecl parses a type declaration whose keyword(s) (n tokens) are at p.i.
func (p *parser) typeDecl(kind TypeKind, n int, outer *Type, code *Code, static, local bool) {
	p.i += n
	t := &Type{Kind: kind, NameTok: p.tok(), Outer: outer, Code: code, Local: local, BodyEnd: -1}
	t.Name = p.text(t.NameTok)
	t.Static = static || kind != Class
	p.file.Types = append(p.file.Types, t)
	p.i++
	if p.is("<") {
		t.TypeParams = p.typeParams()
	}
	if kind == Record && p.is("(") {
		t.Components = p.params()
	}
	for !p.eof() && !p.is("{") {
		if p.is(";") || p.is("}") {
			return // not a declaration after all, or an incomplete one
		}
		p.i++
	}
	if p.eof() {
		return
	}
	t.BodyStart = p.tok().Off
	p.i++
	if kind == Enum {
		p.enumConstants(t)
	}
	p.classBody(t)
}

var modifiers = map[string]bool{
	"public": true, "protected": true, "private": true, "static": true, "final": true,
	"abstract": true, "native": true, "synchronized": true, "transient": true,
	"volatile": true, "strictfp": true, "default": true, "sealed": true,
}

type mods struct {
	static     bool
	typeParams []string
}

// classBody parses members up to and including the closing '}', which it records.
func (p *parser) classBody(t *Type) {
	var m mods
	for !p.eof() {
		tok := p.tok()
		switch {
		case p.is("}"):
			t.BodyEnd = tok.Off
			p.i++
			return
		case p.is(";"):
			p.i++
			m = mods{}
		case p.is("@") && !p.isAt(1, "interface"):
			p.skipAnnotation()
		case p.is("non") && p.isAt(1, "-") && p.isAt(2, "sealed"):
			p.i += 3
		case tok.Kind == TokIdent && modifiers[p.text(tok)]:
			if p.is("static") {
				m.static = true
			}
			p.i++
		case p.is("{"):
			c := &Code{Kind: Initializer, Type: t, Static: m.static, Name: "<init>", NameTok: tok, Start: tok.Off}
			if m.static {
				c.Name = "<clinit>"
			}
			p.file.Codes = append(p.file.Codes, c)
			p.block(c)
			m = mods{}
		case p.is("<"):
			m.typeParams = p.typeParams()
		default:
			if kind, n := p.typeDeclStart(); n > 0 {
				p.typeDecl(kind, n, t, nil, m.static || t.Kind != Class, false)
				m = mods{}
				continue
			}
			before := p.i
			p.member(t, m)
			m = mods{}
			if p.i == before {
				p.i++
			}
		}
	}
}

// member parses a method, constructor or field declaration after its modifiers.
func (p *parser) member(t *Type, m mods) {
	start, last, depth := p.i, -1, 0
loop:
	for !p.eof() {
		tok := p.tok()
		switch {
		case p.is("<"):
			depth++
		case p.is(">"):
			if depth > 0 {
				depth--
			}
		case depth == 0 && (p.is("(") || p.is("=") || p.is(";") || p.is("{") || p.is(",") || p.is("}")):
			break loop
		case p.is("@"):
			p.skipAnnotation()
			continue
		case depth == 0 && tok.Kind == TokIdent:
			last = p.i
		}
		p.i++
	}
	if p.eof() || last < 0 {
		return
	}
	nameTok := p.toks[last]
	name := p.text(nameTok)
	static := m.static || t.Kind == Interface && !p.is("(") || t.Kind == Annotation
	switch {
	case p.is("("):
		c := &Code{Kind: Method, Type: t, Name: name, NameTok: nameTok, TypeParams: m.typeParams, Static: m.static, Start: nameTok.Off, BodyStart: -1}
		if last == start && name == t.Name {
			c.Kind = Constructor
		}
		c.Params = p.params()
		p.file.Codes = append(p.file.Codes, c)
		// Throws clauses, old-style array dimensions and annotation defaults
		// (which may hold braces) run up to the body or the ';'.
		for !p.eof() && !p.is("{") && !p.is(";") && !p.is("}") {
			if p.is("default") {
				p.skipTo(";")
				break
			}
			p.i++
		}
		if p.is("{") {
			p.block(c)
			return
		}
		c.End = p.prevEnd()
		if p.is(";") {
			c.End = p.tok().End
			p.i++
		}
	case p.is("{") && last == start && name == t.Name && t.Kind == Record:
		c := &Code{Kind: Constructor, Compact: true, Type: t, Name: name, NameTok: nameTok, Params: t.Components, Start: nameTok.Off}
		p.file.Codes = append(p.file.Codes, c)
		p.block(c)
	case p.is("{"):
		// Not a declaration we know: treat the block as code so that its calls
		// still have an owner.
		c := &Code{Kind: Initializer, Type: t, Name: "<init>", NameTok: nameTok, Start: nameTok.Off}
		p.file.Codes = append(p.file.Codes, c)
		p.block(c)
	case p.is("=") || p.is(","):
		c := &Code{Kind: FieldInit, Type: t, Name: name, NameTok: nameTok, Static: static, Start: nameTok.Off, BodyStart: -1}
		p.file.Codes = append(p.file.Codes, c)
		for !p.eof() {
			p.i++ // past '=' or ','
			p.code(c, true)
			if !p.is(",") {
				break
			}
		}
		c.End = p.prevEnd()
		if p.is(";") {
			p.i++
		}
	case p.is(";"):
		p.i++
	}
}

// enumConstants parses the constants at the start of an enum body.
func (p *parser) enumConstants(t *Type) {
	for !p.eof() {
		switch {
		case p.is(";"):
			p.i++
			return
		case p.is("}"):
			return
		case p.is(","):
			p.i++
		case p.is("@"):
			p.skipAnnotation()
		case p.identAt(0):
			nameTok := p.tok()
			c := &Code{Kind: FieldInit, Type: t, Name: p.text(nameTok), NameTok: nameTok, Static: true, Start: nameTok.Off, BodyStart: -1}
			p.file.Codes = append(p.file.Codes, c)
			p.addCall(CallEnumConst, nameTok, c)
			p.i++
			if p.is("(") {
				p.i++
				p.code(c, false)
				if p.is(")") {
					p.i++
				}
			}
			c.End = p.prevEnd()
			if p.is("{") {
				at := &Type{Kind: Class, Anonymous: true, Outer: t, Code: c, Super: t.Name, NameTok: nameTok, BodyStart: p.tok().Off, BodyEnd: -1}
				p.file.Types = append(p.file.Types, at)
				p.i++
				p.classBody(at)
			}
		default:
			return
		}
	}
}

// block parses a '{' ... '}' body of c.
func (p *parser) block(c *Code) {
	c.BodyStart = p.tok().Off
	p.i++
	p.code(c, false)
	c.End = p.prevEnd()
	if p.is("}") {
		c.End = p.tok().End
		p.i++
	}
}

// callKeywords are keywords that may be followed by '(' without being calls.
var callKeywords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "synchronized": true,
	"return": true, "throw": true, "assert": true, "case": true, "try": true, "else": true,
	"do": true, "instanceof": true, "yield": true, "when": true,
}

// code scans the code of c. It returns at a ')', ']' or '}' that closes a bracket
// opened before the region (not consumed) and, in expression mode, at a ',' or ';'
// at the region's own nesting level (not consumed).
func (p *parser) code(c *Code, expr bool) {
	depth := 0
	for !p.eof() {
		t := p.tok()
		if t.Kind == TokPunct {
			switch p.text(t) {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return
				}
				depth--
			case ",", ";":
				if expr && depth == 0 {
					return
				}
			case "->":
				p.arrow(c)
				continue
			case "::":
				p.addCall(CallMethodRef, t, c)
			case "@":
				if !p.isAt(1, "interface") {
					p.skipAnnotation()
					continue
				}
			}
			if kind, n := p.typeDeclStart(); n > 0 { // @interface
				p.typeDecl(kind, n, c.Type, c, true, true)
				continue
			}
			p.i++
			continue
		}
		if t.Kind == TokIdent {
			s := p.text(t)
			if s == "new" {
				p.newExpr(c)
				continue
			}
			if kind, n := p.typeDeclStart(); n > 0 {
				p.typeDecl(kind, n, c.Type, c, kind != Class, true)
				continue
			}
			if p.isAt(1, "(") {
				switch {
				case s == "this":
					p.addCall(CallThis, t, c)
				case s == "super":
					p.addCall(CallSuper, t, c)
				case !callKeywords[s]:
					p.addCall(CallMethod, t, c)
				}
			}
		}
		p.i++
	}
}

// arrow handles a "->" at p.i: a lambda, or the arrow of a switch rule.
func (p *parser) arrow(c *Code) {
	arrowTok := p.tok()
	if p.switchRule() {
		p.i++
		return
	}
	start := arrowTok.Off
	if p.i > 0 {
		prev := p.toks[p.i-1]
		start = prev.Off
		if p.isAt(-1, ")") {
			if j := p.matchBack(p.i - 1); j >= 0 {
				start = p.toks[j].Off
			}
		}
	}
	p.addCall(CallLambda, arrowTok, c)
	l := &Code{Kind: Lambda, Type: c.Type, Parent: c, Name: "lambda", NameTok: arrowTok, Static: c.Static, Start: start, BodyStart: -1}
	p.file.Codes = append(p.file.Codes, l)
	p.i++
	if p.is("{") {
		p.block(l)
		return
	}
	p.code(l, true)
	l.End = p.prevEnd()
}

// switchRule reports whether the "->" at p.i belongs to a switch rule (case L ->,
// default ->) rather than to a lambda.
func (p *parser) switchRule() bool {
	if p.isAt(-1, "default") {
		return true
	}
	nest := 0
	for j := p.i - 1; j >= 0; j-- {
		t := p.toks[j]
		s := p.text(t)
		switch s {
		case ")", "]":
			nest++
		case "(", "[":
			if nest == 0 {
				return false
			}
			nest--
		case ";", "{", "}", ":", "->":
			if nest == 0 {
				return false
			}
		case "case":
			if nest == 0 {
				return true
			}
		}
	}
	return false
}

// matchBack returns the index of the '(' matching the ')' at j, or -1.
func (p *parser) matchBack(j int) int {
	nest := 0
	for ; j >= 0; j-- {
		switch p.text(p.toks[j]) {
		case ")":
			nest++
		case "(":
			nest--
			if nest == 0 {
				return j
			}
		}
	}
	return -1
}

// newExpr handles `new` at p.i: a class instance creation (with an anonymous class
// body when one follows) or an array creation.
func (p *parser) newExpr(c *Code) {
	p.i++
	if p.is("<") {
		p.skipAngles()
	}
	for p.is("@") {
		p.skipAnnotation()
	}
	var nameTok Token
	found := false
	for !p.eof() && p.identAt(0) {
		nameTok, found = p.tok(), true
		p.i++
		if p.is("<") {
			p.skipAngles()
		}
		if p.is(".") && p.identAt(1) {
			p.i++
			continue
		}
		break
	}
	if !found || !p.is("(") {
		return // array creation (or broken text): the main loop goes on from here
	}
	p.addCall(CallNew, nameTok, c)
	p.i++
	p.code(c, false)
	if p.is(")") {
		p.i++
	}
	if p.is("{") {
		at := &Type{Kind: Class, Anonymous: true, Outer: c.Type, Code: c, Super: p.text(nameTok), NameTok: nameTok, BodyStart: p.tok().Off, BodyEnd: -1}
		p.file.Types = append(p.file.Types, at)
		p.i++
		p.classBody(at)
	}
}

// params parses a parenthesised parameter (or record component) list at p.i,
// consuming the closing ')'.
func (p *parser) params() []Param {
	p.i++ // '('
	var out []Param
	var cur []Token
	paren, angle := 0, 0
	flush := func() {
		if prm, ok := p.param(cur); ok {
			out = append(out, prm)
		}
		cur = cur[:0]
	}
	for !p.eof() {
		t := p.tok()
		s := p.text(t)
		switch {
		case s == "(":
			paren++
		case s == ")":
			if paren == 0 {
				flush()
				p.i++
				return out
			}
			paren--
		case s == "<":
			angle++
		case s == ">":
			if angle > 0 {
				angle--
			}
		case s == "," && paren == 0 && angle == 0:
			flush()
			p.i++
			continue
		case s == "{" || s == ";":
			flush() // an unclosed list: stop before the body
			return out
		}
		cur = append(cur, t)
		p.i++
	}
	flush()
	return out
}

// param interprets the tokens of one parameter.
func (p *parser) param(ts []Token) (Param, bool) {
	// Drop annotations (with their arguments) and modifiers.
	var keep []Token
	for i := 0; i < len(ts); i++ {
		s := p.text(ts[i])
		if s == "@" {
			i++
			for i+1 < len(ts) && p.text(ts[i+1]) == "." {
				i += 2
			}
			if i+1 < len(ts) && p.text(ts[i+1]) == "(" {
				nest := 0
				for i++; i < len(ts); i++ {
					switch p.text(ts[i]) {
					case "(":
						nest++
					case ")":
						nest--
					}
					if nest == 0 {
						break
					}
				}
			}
			continue
		}
		if s == "final" {
			continue
		}
		keep = append(keep, ts[i])
	}
	nameAt := -1
	for i := len(keep) - 1; i >= 0; i-- {
		if keep[i].Kind == TokIdent {
			nameAt = i
			break
		}
	}
	if nameAt <= 0 {
		return Param{}, false
	}
	prm := Param{Name: p.text(keep[nameAt])}
	if prm.Name == "this" {
		return Param{}, false // a receiver parameter is not a parameter of the descriptor
	}
	for _, t := range keep[nameAt+1:] {
		if p.text(t) == "[" {
			prm.Dims++
		}
	}
	angle := 0
	for _, t := range keep[:nameAt] {
		s := p.text(t)
		switch {
		case s == "<":
			angle++
		case s == ">":
			angle--
		case angle > 0:
		case s == "[":
			prm.Dims++
		case s == "...":
			prm.Dims++
			prm.Varargs = true
		case t.Kind == TokIdent:
			prm.Type = s
		}
	}
	return prm, prm.Type != ""
}

// typeParams parses type parameters at p.i ('<'), returning their names.
func (p *parser) typeParams() []string {
	var names []string
	depth := 0
	expectName := false
	for !p.eof() {
		s := p.text(p.tok())
		switch {
		case s == "<":
			depth++
			expectName = depth == 1
		case s == ">":
			depth--
			if depth <= 0 {
				p.i++
				return names
			}
		case s == "," && depth == 1:
			expectName = true
		case s == "@":
			p.skipAnnotation()
			continue
		case expectName && p.identAt(0):
			names = append(names, s)
			expectName = false
		case s == "{" || s == ";" || s == "(":
			return names
		}
		p.i++
	}
	return names
}

// skipAngles skips a balanced '<' ... '>' group at p.i.
func (p *parser) skipAngles() {
	depth := 0
	for !p.eof() {
		switch {
		case p.is("<"):
			depth++
		case p.is(">"):
			depth--
			if depth <= 0 {
				p.i++
				return
			}
		case p.is("{") || p.is(";") || p.is(")"):
			return // a comparison after all
		}
		p.i++
	}
}

// skipAnnotation skips an annotation at p.i ('@').
func (p *parser) skipAnnotation() {
	p.i++
	for p.identAt(0) {
		p.i++
		if p.is(".") && p.identAt(1) {
			p.i++
			continue
		}
		break
	}
	if p.is("(") {
		nest := 0
		for !p.eof() {
			switch {
			case p.is("("):
				nest++
			case p.is(")"):
				nest--
			}
			p.i++
			if nest == 0 {
				return
			}
		}
	}
}

// skipTo advances to the next token s at bracket depth 0 (not consumed).
func (p *parser) skipTo(s string) {
	depth := 0
	for !p.eof() {
		switch {
		case p.is("(") || p.is("{") || p.is("["):
			depth++
		case p.is(")") || p.is("}") || p.is("]"):
			if depth == 0 {
				return
			}
			depth--
		case depth == 0 && p.is(s):
			return
		}
		p.i++
	}
}
