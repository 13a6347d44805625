package ide

import "encoding/json"

// Position is a position in a document as LSP counts it: a 0-based line and a
// 0-based column in UTF-16 code units.
type Position struct {
	Line      uint32
	Character uint32
}

// Range is a range of a document, its end exclusive.
type Range struct {
	Start, End Position
}

// Doc names a document: a Java source file (Path) or the read-only listing of a
// class without source (Class, an internal name). The server turns it into a URI.
type Doc struct {
	Path  string
	Class string
}

// Location is a range of a document.
type Location struct {
	Doc   Doc
	Range Range
}

// SymbolKind is the kind of a call-hierarchy item, numbered as LSP numbers them.
type SymbolKind uint32

// The kinds of methods.
const (
	KindMethod      SymbolKind = 6
	KindConstructor SymbolKind = 9
	KindFunction    SymbolKind = 12 // static initialisers, lambdas, the NativeMethod node
)

// Severity is the severity of a diagnostic, numbered as LSP numbers them; 0 means
// no diagnostic.
type Severity uint32

// Severities.
const (
	SeverityError       Severity = 1
	SeverityWarning     Severity = 2
	SeverityInformation Severity = 3
	SeverityHint        Severity = 4
)

// Settings are what features present, besides the graph of a snapshot: how much,
// and how severely.
type Settings struct {
	Severity       Severity // of unresolved and partially resolved sites
	NativeSeverity Severity // of reachable native calls
	HoverTargets   int      // targets listed in a hover
	// MaxCallItems bounds the items of one incoming or outgoing calls answer
	// (hotcalls.go); 0 for no bound.
	MaxCallItems int
}

// CallItem is an item of a call hierarchy: a method (or the NativeMethod node), or a
// "more" item that continues a capped answer, or a note. Data identifies it in a
// later snapshot; clients send it back.
type CallItem struct {
	Name      string
	Kind      SymbolKind
	Detail    string
	Doc       Doc
	Range     Range // the method's whole extent
	Selection Range // its name
	Data      json.RawMessage
}

// IncomingCall is a caller and the ranges of its calls.
type IncomingCall struct {
	From       CallItem
	FromRanges []Range
}

// OutgoingCall is a callee and the ranges of the calls to it.
type OutgoingCall struct {
	To         CallItem
	FromRanges []Range
}

// Diagnostic is what a source file shows for an unresolved or partially resolved
// dynamic site. Data identifies the site (SiteOf).
type Diagnostic struct {
	Range    Range
	Severity Severity
	Code     string // the feature: reflection, native, ...
	Message  string
	Data     json.RawMessage
	Related  []Related
}

// Related is a location a diagnostic refers to, and why.
type Related struct {
	Location Location
	Message  string
}

// Fix is a quick fix: an entry for the specification file.
type Fix struct {
	Title     string
	Preferred bool
	Edit      SpecEdit
}

// SpecEdit inserts text into the specification file at Path, creating the file when
// it does not exist (Create). Version is the editor's version of the file when it is
// open (Open): the client rejects the edit rather than clobber text changed since.
type SpecEdit struct {
	Path    string
	Create  bool
	At      Position
	Text    string
	Open    bool
	Version int32
}
