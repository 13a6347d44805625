package values

import (
	"strconv"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Environment is what Correct-Env (levels 5 and 6) takes the run's system
// properties and environment variables to be: "the values of environment variables
// which can affect dynamic class loading sites will be the same at analysis time
// and at run time" (docs/assumption-levels.md). A system property is then one of:
//   - configured (Values: the run's --env over the JDK's defaults): that value;
//   - set by the JVM or the launcher from the machine (Machine): unknown unless
//     configured;
//   - written by reachable code (Written: System.setProperty, ...): unknown;
//   - otherwise unset: System.getProperty(k) is null and getProperty(k, d) is d.
//
// A security property (Security.getProperty) is likewise configured (--env), the
// JDK's java.security value, written by reachable code (Security.setProperty:
// unknown), or else unset (null). The -Djava.security.properties file would add to
// java.security: while that system property is configured or may be set, every
// security property is unknown.
//
// Environment variables (System.getenv) are configured or unknown: a machine has
// many, and which the program's run saw is not ours to assume.
//
// Written and ReadUnset name a security property with the prefix SecurityKey.
type Environment struct {
	// Values maps "key" to a system property's value and "env.NAME" to the
	// environment variable NAME's.
	Values map[string]string
	// Machine reports the system properties the JVM sets from the machine.
	Machine func(key string) bool
	// Written reports whether reachable code may set a system property. (Which code
	// does depends on the order a run finds it in: the graph does not say.)
	Written func(key string) bool
	// ReadUnset is told each system property a value took as unset: a run that
	// later finds code writing it must answer again.
	ReadUnset func(key string)
	// Security returns a security property's value in the JDK's java.security;
	// nil when the JDK's configuration is not known (every one is unknown then).
	Security func(key string) (string, bool)
	// Internal, when not nil, reports the JDK's classes whose package their
	// module exports and opens to no module outside the JDK (Correct-JDK): code
	// outside the JDK can neither name their members nor reach them by
	// reflection.
	Internal func(c *hierarchy.Class) bool
	// Upcalled, when not nil, reports the methods that the JVM or native code may
	// call (the JDK model): they have callers besides the code the analyses read.
	Upcalled func(m *hierarchy.Method) bool
}

// SecurityKey prefixes a security property's key where Environment's Written and
// ReadUnset name it, apart from the system property of the same name.
const SecurityKey = "security:"

// launchKey prefixes, in Str.Unset, a system property read while the JVM starts
// (launchRead): unset then, whatever reachable code writes later.
const launchKey = "launch:"

// securityOverride is the system property naming a file of security properties
// that java.security.Security loads over java.security.
const securityOverride = "java.security.properties"

// envStr evaluates System.getProperty(k[, default]), System.getenv(k) and
// Security.getProperty(k): known only under Correct-Env (Environment).
func (a *Analyzer) envStr(mi *method, c *facts.Call, depth int) Str {
	key := a.defsStr(mi, mi.operand(c.PC, 0), depth)
	api := shortName(c.Ref.Class) + "." + c.Ref.Name
	ks := key.Values()
	if len(ks) == 0 {
		return hole(a.point(mi, c.PC, api+" with a non-constant key"))
	}
	// A key from a few literals (a helper's parameter its callers give
	// constants: ForkJoinPool.newInstanceFromSystemProperty) is each of them.
	out := a.envKey(mi, c, api, ks[0], depth)
	for _, k := range ks[1:] {
		out = union(out, a.envKey(mi, c, api, k, depth))
	}
	out.dependsOn(key)
	return out
}

// envKey evaluates envStr's call for one key k.
func (a *Analyzer) envKey(mi *method, c *facts.Call, api, k string, depth int) Str {
	// The environment is a source only Correct-Env licenses, and only with its value.
	pt := beyond(a.point(mi, c.PC, api+`("`+k+`")`))
	if !a.level.UsesAnalysedEnvironment() {
		return hole(pt)
	}
	lookup := k
	if c.Ref.Name == "getenv" {
		lookup = "env." + k
	}
	if v, ok := a.env.Values[lookup]; ok {
		s := lit(v)
		s.Env = true
		return s
	}
	withDefault := c.Ref.Desc == "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;"
	if c.Ref.Class == "java/security/Security" && c.Ref.Name == "getProperty" {
		return a.securityKey(k, pt)
	}
	if c.Ref.Class != "java/lang/System" || c.Ref.Name != "getProperty" {
		if v, ok := a.env.Values[k]; ok {
			s := lit(v)
			s.Env = true
			return s
		}
		if withDefault {
			// With no configured value, the default applies.
			d := a.defsStr(mi, mi.operand(c.PC, 1), depth)
			d.Env = true
			return d
		}
		return hole(pt)
	}
	switch {
	case a.env.Machine != nil && a.env.Machine(k):
		pt.Kind += ", which the JVM sets from the machine"
		return hole(pt)
	case a.level.ModelsJDK() && a.launchRead(mi.m, k):
		return a.unsetValue(mi, c, launchKey+k, withDefault, depth)
	}
	if a.env.Written != nil && a.env.Written(k) {
		pt.Kind += ", which reachable code may set"
		return hole(pt)
	}
	a.readUnset([]string{k})
	return a.unsetValue(mi, c, k, withDefault, depth)
}

// unsetValue is the value of getProperty(k[, default]) for a property that is unset
// (named in Unset as key): null, or the default.
func (a *Analyzer) unsetValue(mi *method, c *facts.Call, key string, withDefault bool, depth int) Str {
	out := Str{Env: true, Unset: []string{key}}
	if !withDefault {
		return out
	}
	d := a.defsStr(mi, mi.operand(c.PC, 1), depth)
	out.dependsOn(d)
	d.dependsOn(out)
	return d
}

// launchRead reports whether m's read of system property k runs while the JVM
// starts, before any code but the JDK's own startup has run, so that at Correct-JDK
// it sees the launch environment whatever reachable code sets later. System.initPhase3
// reads java.security.manager first thing; ClassLoader.initSystemClassLoader, which
// runs only at init level 3, called by initPhase3, reads java.system.class.loader
// next, after a security manager of the program's (java.security.manager naming a
// class) may have run.
func (a *Analyzer) launchRead(m *hierarchy.Method, k string) bool {
	if m.Class.Origin != hierarchy.JDK {
		return false
	}
	switch m.Class.Name + "." + m.Name + " " + k {
	case "java/lang/System.initPhase3 java.security.manager":
		return true
	case "java/lang/ClassLoader.initSystemClassLoader java.system.class.loader":
		switch sm, ok := a.env.Values["java.security.manager"]; {
		case !ok, sm == "", sm == "default", sm == "allow", sm == "disallow":
			return true
		}
	}
	return false
}

// securityKey evaluates Security.getProperty(k) under Correct-Env, k not configured.
func (a *Analyzer) securityKey(k string, pt Point) Str {
	switch {
	case a.env.Security == nil:
		return hole(pt)
	case a.env.Values[securityOverride] != "":
		pt.Kind += ", which the configured " + securityOverride + " file may set"
		return hole(pt)
	case a.env.Written != nil && (a.env.Written(securityOverride) || a.env.Written(SecurityKey+k)):
		// One text for both, whichever a run finds first.
		pt.Kind += ", which reachable code may set"
		return hole(pt)
	}
	// The answer holds while no -Djava.security.properties file adds to it.
	a.readUnset([]string{securityOverride})
	if v, ok := a.env.Security(k); ok {
		s := lit(v)
		s.Env, s.Unset = true, []string{securityOverride}
		return s
	}
	a.readUnset([]string{SecurityKey + k})
	return Str{Env: true, Unset: []string{securityOverride, SecurityKey + k}}
}

// unsetEvidence says which system and security properties a site's value took as
// unset.
func unsetEvidence(keys []string) string {
	var sys, sec, launch []string
	for _, k := range keys {
		if p, ok := strings.CutPrefix(k, launchKey); ok {
			launch = append(launch, strconv.Quote(p))
		} else if p, ok := strings.CutPrefix(k, SecurityKey); ok {
			sec = append(sec, strconv.Quote(p))
		} else {
			sys = append(sys, strconv.Quote(k))
		}
	}
	are := func(q []string) string {
		if len(q) > 1 {
			return " are"
		}
		return " is"
	}
	var out []string
	if len(sys) > 0 {
		out = append(out, "system property "+strings.Join(sys, ", ")+are(sys)+" unset in the analysed environment (not configured, not a JDK default, not set by reachable code)")
	}
	if len(launch) > 0 {
		out = append(out, "system property "+strings.Join(launch, ", ")+are(launch)+" unset in the analysed environment when the JVM starts, and read then, before any code of the program runs (not configured, not a JDK default)")
	}
	if len(sec) > 0 {
		out = append(out, "security property "+strings.Join(sec, ", ")+are(sec)+" unset in the analysed environment (not configured, not in the JDK's java.security, not set by reachable code)")
	}
	return strings.Join(out, "; ")
}

// readUnset tells the environment's ReadUnset of keys a value took as unset, also
// when the value is reused from an earlier question.
func (a *Analyzer) readUnset(keys []string) {
	if a.env.ReadUnset == nil {
		return
	}
	for _, k := range keys {
		a.env.ReadUnset(k)
	}
}
