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
	// (hotcalls.go), and of an implementation or subtypes answer; 0 for no bound.
	MaxCallItems int
	// Unreachable is the severity of the diagnostics of unreachable application
	// methods (unreachable.go); 0 for none.
	Unreachable Severity
	// CodeLens: the caller counts above each method (codelens.go).
	CodeLens bool
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

// TypeKind is the kind of a type-hierarchy item, numbered as LSP's SymbolKind.
type TypeKind uint32

// The kinds of types.
const (
	KindClass     TypeKind = 5
	KindEnum      TypeKind = 10
	KindInterface TypeKind = 11
)

// TypeItem is an item of a type hierarchy: a class or interface, or a "more" item
// that continues a capped list of subtypes. Data identifies it in a later
// snapshot; clients send it back.
type TypeItem struct {
	Name      string
	Kind      TypeKind
	Detail    string
	Doc       Doc
	Range     Range // the type's declaration
	Selection Range // its name
	Data      json.RawMessage
}

// Lens is a code lens above a method's declaration: unresolved, its Data is what
// ResolveLens needs.
type Lens struct {
	Range Range
	Data  json.RawMessage
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
// dynamic site (Data identifies the site: SiteOf), or for a method the graph does not
// reach.
type Diagnostic struct {
	Range    Range
	Severity Severity
	Code     string // the feature: reflection, native, ...; "unreachable"
	Message  string
	Data     json.RawMessage
	Related  []Related
	// Unnecessary marks code that never runs (LSP's DiagnosticTag.Unnecessary):
	// editors grey it out.
	Unnecessary bool
}

// Related is a location a diagnostic refers to, and why.
type Related struct {
	Location Location
	Message  string
}

// Fix is a quick fix: an entry for the specification file (Edit), or a value of the
// analysed environment (Property).
type Fix struct {
	Title     string
	Preferred bool
	Edit      SpecEdit
	Property  *PropertyFix
}

// PropertyFix sets a key of the analysed environment (Settings' env: a system
// property, or "env.NAME" for the environment variable NAME) to Value and analyses
// again: SetPropertyCommand's arguments.
type PropertyFix struct {
	Key, Value string
}

// SetPropertyCommand is the workspace/executeCommand that a PropertyFix runs.
const SetPropertyCommand = "jcg.setProperty"

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
