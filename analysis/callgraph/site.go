package callgraph

// Feature is a family of dynamic features (assumption-levels.md, "The dynamic features").
type Feature uint8

// Dynamic features.
const (
	FeatLoading       Feature = iota // Class.forName, ClassLoader.loadClass, Lookup.findClass
	FeatInstantiation                // Class.newInstance, Constructor.newInstance
	FeatInvocation                   // Method.invoke
	FeatFieldAccess                  // Field.get*/set*: reported, no call edges
	FeatMethodHandle                 // MethodHandles.Lookup.find*, MethodHandle.invoke*
	FeatNative                       // calls of native methods
	FeatProxy                        // Proxy.newProxyInstance
	numFeatures
)

// Features lists every feature in table order.
var Features = []Feature{FeatLoading, FeatInstantiation, FeatInvocation, FeatFieldAccess,
	FeatMethodHandle, FeatNative, FeatProxy}

var featureNames = [...]string{"loading", "newInstance", "invoke", "field", "methodHandle", "native", "proxy"}

func (f Feature) String() string {
	if int(f) < len(featureNames) {
		return featureNames[f]
	}
	return "feature?"
}

// Status is the resolution status of a dynamic site.
type Status uint8

// Site statuses.
const (
	Unresolved Status = iota // falls back to the level's conservative set
	Partial                  // some targets known, some sources unknown
	Resolved                 // a finite target set derived by the analysis
	Specified                // the user's specification file supplies the targets
)

var statusNames = [...]string{"unresolved", "partially resolved", "resolved", "specified"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "status?"
}

// Site is one dynamic site: a call of a dynamic-feature API (or of a native method) in
// a reachable method.
type Site struct {
	Caller   NodeID
	PC       int32
	Line     int32
	Call     int32 // index of the call in the caller's facts
	Feature  Feature
	API      string // e.g. "Class.forName"
	Status   Status
	Evidence string // what resolved it, or why it stayed unresolved
	Targets  int32  // index into Graph.Sets of the targets; -1 when none
	Fallback Level  // the level whose conservative set the site uses; 0 when none
	Points   []SpecPoint
	// Unset lists the system properties the site's resolution took as unset in the
	// analysed environment (Correct-Env), sorted: a run where one is set may reach
	// more.
	Unset []string
}

// SpecPoint is a place where a user-provided value would resolve a site: where an
// unknown string or class enters the flow that reaches it.
type SpecPoint struct {
	Method NodeID
	PC     int32
	Line   int32
	Kind   string // "public parameter 0", "System.getProperty", "field written from outside", ...
	// Beyond says the value comes from a source the run's level does not license
	// (values.Point.Beyond): a site with such a point is not resolvable at the level.
	Beyond bool
}
