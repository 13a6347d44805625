// Package classfile parses Java class files as specified by chapter 4 of the JVM
// specification, up to class-file version 69 (Java 25).
//
// The parser is strict and never panics on hostile input: every count read from the
// file is checked against the bytes that remain before anything is allocated, and every
// problem is a *FormatError carrying the byte offset. Parsing is lazy where it pays:
// Parse reads the header, the constant pool, fields, methods and class attributes, while
// a method's Code attribute is only located; Method.Code decodes it on demand.
package classfile

import "fmt"

// A FormatError reports a malformed class file, with the offset of the offending bytes.
type FormatError struct {
	Offset int64  // byte offset in the class file
	Msg    string // what is wrong
	Val    any    // the offending value, if any
}

func (e *FormatError) Error() string {
	if e.Val != nil {
		return fmt.Sprintf("classfile: %s (%v) at byte %#x", e.Msg, e.Val, e.Offset)
	}
	return fmt.Sprintf("classfile: %s at byte %#x", e.Msg, e.Offset)
}

// MaxMajorVersion is the newest class-file version this parser understands (Java 25).
const MaxMajorVersion = 69

// maxClassSize bounds the size of a class file, so that offsets into it fit the
// constant pool's 31-bit slots. The JVM's own limits (u2 counts of u2-indexed
// members) keep real classes far below it.
const maxClassSize = 1<<31 - 1
