package javasrc

import (
	"unicode"
	"unicode/utf8"
)

// TokKind classifies a token.
type TokKind uint8

// Token kinds. Keywords are identifiers: the parser tells them apart by text, because
// several (record, sealed, permits, yield, var) are contextual anyway.
const (
	TokIdent  TokKind = iota
	TokNumber         // integer or floating-point literal
	TokString         // string literal or text block
	TokChar           // character literal
	TokPunct          // operator or separator: one character, or "->", "::", "..."
)

// Token is a lexical token: its kind and byte extent in the source.
type Token struct {
	Kind     TokKind
	Off, End int32 // byte offsets, End exclusive
	Line     int32 // 0-based line of Off
}

// lexer splits Java source into tokens, dropping whitespace and comments. It never
// fails: an unterminated comment or literal runs to the end of the input.
type lexer struct {
	src   []byte
	i     int
	line  int32
	lines []int32 // offsets of line starts
	toks  []Token
}

func lex(src []byte) ([]Token, []int32) {
	l := &lexer{src: src, lines: []int32{0}}
	for l.i < len(src) {
		l.next()
	}
	return l.toks, l.lines
}

// newline records a line break ending at l.i (exclusive of the break itself).
func (l *lexer) newline(at int) {
	l.line++
	l.lines = append(l.lines, int32(at))
}

// skipBreak consumes one line terminator (\n, \r\n or \r) at l.i, if any.
func (l *lexer) skipBreak() bool {
	switch l.src[l.i] {
	case '\n':
		l.i++
	case '\r':
		l.i++
		if l.i < len(l.src) && l.src[l.i] == '\n' {
			l.i++
		}
	default:
		return false
	}
	l.newline(l.i)
	return true
}

func (l *lexer) emit(k TokKind, start int, line int32) {
	l.toks = append(l.toks, Token{Kind: k, Off: int32(start), End: int32(l.i), Line: line})
}

func (l *lexer) next() {
	src := l.src
	c := src[l.i]
	switch {
	case c == '\n' || c == '\r':
		l.skipBreak()
		return
	case c == ' ' || c == '\t' || c == '\f':
		l.i++
		return
	case c == '/' && l.i+1 < len(src) && src[l.i+1] == '/':
		for l.i < len(src) && src[l.i] != '\n' && src[l.i] != '\r' {
			l.i++
		}
		return
	case c == '/' && l.i+1 < len(src) && src[l.i+1] == '*':
		l.i += 2
		for l.i < len(src) {
			if src[l.i] == '*' && l.i+1 < len(src) && src[l.i+1] == '/' {
				l.i += 2
				return
			}
			if !l.skipBreak() {
				l.i++
			}
		}
		return
	}
	start, line := l.i, l.line
	switch {
	case c == '"':
		if l.i+2 < len(src) && src[l.i+1] == '"' && src[l.i+2] == '"' {
			l.textBlock()
		} else {
			l.quoted('"')
		}
		l.emit(TokString, start, line)
	case c == '\'':
		l.quoted('\'')
		l.emit(TokChar, start, line)
	case isDigit(c) || (c == '.' && l.i+1 < len(src) && isDigit(src[l.i+1])):
		l.number()
		l.emit(TokNumber, start, line)
	case isIdentStart(c):
		l.i++
		l.identRest()
		l.emit(TokIdent, start, line)
	case c >= utf8.RuneSelf:
		r, n := utf8.DecodeRune(src[l.i:])
		l.i += n
		if unicode.IsLetter(r) || r == '_' || unicode.Is(unicode.Sc, r) {
			l.identRest()
			l.emit(TokIdent, start, line)
		}
		// Other non-ASCII characters outside literals are not Java: skip them.
	default:
		n := 1
		if l.i+1 < len(src) {
			switch {
			case c == '-' && src[l.i+1] == '>', c == ':' && src[l.i+1] == ':':
				n = 2
			case c == '.' && src[l.i+1] == '.' && l.i+2 < len(src) && src[l.i+2] == '.':
				n = 3
			}
		}
		l.i += n
		l.emit(TokPunct, start, line)
	}
}

func (l *lexer) identRest() {
	for l.i < len(l.src) {
		c := l.src[l.i]
		if isIdentStart(c) || isDigit(c) {
			l.i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(l.src[l.i:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Sc, r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) {
				l.i += n
				continue
			}
		}
		return
	}
}

// quoted consumes a string or character literal; a line break ends an unterminated one.
func (l *lexer) quoted(q byte) {
	l.i++
	for l.i < len(l.src) {
		switch l.src[l.i] {
		case '\\':
			l.i += 2
			continue
		case q:
			l.i++
			return
		case '\n', '\r':
			return
		}
		l.i++
	}
	l.i = len(l.src)
}

func (l *lexer) textBlock() {
	l.i += 3
	for l.i < len(l.src) {
		switch {
		case l.src[l.i] == '\\':
			l.i++
			if l.i < len(l.src) && !l.skipBreak() {
				l.i++
			}
			continue
		case l.src[l.i] == '"' && l.i+2 < len(l.src) && l.src[l.i+1] == '"' && l.src[l.i+2] == '"':
			l.i += 3
			return
		}
		if !l.skipBreak() {
			l.i++
		}
	}
}

func (l *lexer) number() {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case isDigit(c) || isIdentStart(c) || c == '.':
			// An exponent's sign belongs to the literal: 1e-5, 0x1p+3.
			if (c == 'e' || c == 'E' || c == 'p' || c == 'P') && l.i+1 < len(l.src) && (l.src[l.i+1] == '+' || l.src[l.i+1] == '-') {
				l.i++
			}
			l.i++
		default:
			return
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}
