package analysis

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/jdkmodel"
	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/config"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Correct-Env's system properties (issue 28 item 3). At levels 5 and 6 the run's
// environment is the one analysed: the configured values (--env) over the JDK's
// defaults (index/config), the keys the JVM sets from the machine (unknown unless
// configured), and the keys reachable code sets. Any other key is unset:
// System.getProperty(k) is null and getProperty(k, d) is d (values.Environment), so a
// JDK site that loads the class a property names (System.initPhase3's
// java.security.manager, FileSystems' default provider) loads nothing. Security
// properties (Security.getProperty) follow the same rules over the JDK's
// java.security, with Security.setProperty as their writer; envState keeps their
// keys with the prefix values.SecurityKey.
//
// Which keys reachable code sets is known only as the run goes. A key is written by
// System.setProperty(k, v) with k known to the string analysis; setProperty with
// another key, System.setProperties, a use of System.getProperties() other than
// reading it, and any call of these three that is not a plain static call (through
// reflection, a method handle, a lambda: its arguments are not followed) may write
// every key. A dynamic site whose resolution took a key as unset is resolved again
// when the key turns out to be written (the new resolution is a superset: an
// unknown value instead of none); the site's record is replaced, and the edges the
// earlier resolution added stay (they are among the new ones). A key read as
// unset outside any dynamic site's resolution cannot be answered again: a write of
// it starts the run anew with the keys written so far (errEnvWritten).

// errEnvWritten stops a pass of a run whose answers took a key as unset that
// reachable code writes (see envRun.orphans).
var errEnvWritten = errors.New("analysis: reachable code writes a system or security property a pass took as unset")

// envState is what a run knows of the properties reachable code writes, kept in the
// trace for an update.
type envState struct {
	written     map[string]bool // system keys, and security keys with values.SecurityKey
	any         bool            // reachable code may write every system property
	anySecurity bool            // ... every security property
	unset       map[string]bool // keys answers took as unset
	orphans     map[string]bool // keys read unset outside a dynamic site
	// by gives each write the nodes that make it, in the order found (solver.cur,
	// or a dynamic bundle's caller; -1 for none: the write stays). An update keeps a
	// write while one of them is reachable and not visited again, or the visit
	// finds the write again. A write of a key that a write of every key covers is
	// recorded too: it stays when the other goes.
	by map[envWrite][]int32
	// readWritten gives, for each key, the methods whose dynamic sites read it as
	// written (what reachable code writes is unknown), and writtenOrphans the keys
	// read so outside a dynamic site: when an update takes a write away, those
	// sites resolve otherwise.
	readWritten    map[string][]int32
	writtenOrphans map[string]bool
}

// envWrite names a write of envState: a key, or (every) every key of namespace key.
type envWrite struct {
	key   string
	every bool
}

// String names the properties w writes.
func (w envWrite) String() string {
	switch {
	case !w.every:
		return "property " + strings.TrimPrefix(w.key, values.SecurityKey)
	case w.key == values.SecurityKey:
		return "every security property"
	}
	return "every system property"
}

// remap returns e with its writers and readers in the new IDs of a member edit;
// those a member edit removed are gone.
func (e *envState) remap(m *idMap) *envState {
	out := *e
	ids := func(xs []int32) []int32 {
		var kept []int32
		for _, x := range xs {
			if x < 0 {
				kept = append(kept, x)
			} else if y := m.method[x]; y >= 0 {
				kept = append(kept, y)
			}
		}
		return kept
	}
	out.by = make(map[envWrite][]int32, len(e.by))
	for w, by := range e.by {
		out.by[w] = ids(by)
	}
	out.readWritten = make(map[string][]int32, len(e.readWritten))
	for k, rs := range e.readWritten {
		out.readWritten[k] = ids(rs)
	}
	return &out
}

// has reports whether the state holds write w.
func (e *envState) has(w envWrite) bool {
	return e.every(keySpace(w.key)) || !w.every && e.written[w.key]
}

// seed returns the state an update's probe starts from: e without the writes whose
// every writer the probe visits again (visited) or a member edit removed, or that
// are gone (their writers are no longer reachable), which it returns too. The probe
// finds again those its visits still make.
func (e *envState) seed(visited callgraph.Bitset, gone map[envWrite]bool) (*envState, []envWrite) {
	out := &envState{by: map[envWrite][]int32{}}
	var dropped []envWrite
	for w, by := range e.by {
		if kept := keptWriters(by, visited); len(kept) > 0 && !gone[w] {
			out.by[w] = kept
		} else {
			dropped = append(dropped, w)
		}
	}
	out.deriveWrites()
	return out, dropped
}

// keptWriters returns the writers of by that visited does not hold.
func keptWriters(by []int32, visited callgraph.Bitset) []int32 {
	var kept []int32
	for _, x := range by {
		if x < 0 || !visited.Has(x) {
			kept = append(kept, x)
		}
	}
	return kept
}

// deriveWrites sets written, any and anySecurity from the writes of by.
func (e *envState) deriveWrites() {
	e.written, e.any, e.anySecurity = map[string]bool{}, false, false
	for w := range e.by {
		switch {
		case !w.every:
			e.written[w.key] = true
		case w.key == values.SecurityKey:
			e.anySecurity = true
		default:
			e.any = true
		}
	}
}

// readersAsWritten returns the methods whose dynamic sites read a key of w as
// written, and whether one was read so outside a dynamic site.
func (e *envState) readersAsWritten(w envWrite) (readers []int32, orphan bool) {
	for k, rs := range e.readWritten {
		if k == w.key || w.every && keySpace(k) == w.key {
			readers = append(readers, rs...)
		}
	}
	for k := range e.writtenOrphans {
		if k == w.key || w.every && keySpace(k) == w.key {
			orphan = true
		}
	}
	return readers, orphan
}

// takenUnset returns the keys the graph of e's run took as unset: those its answers
// read unset that no reachable code writes (the sites that read a key before a write
// was found were resolved again).
func (e *envState) takenUnset() map[string]bool {
	out := map[string]bool{}
	for k := range e.unset {
		if !e.has(envWrite{key: k}) {
			out[k] = true
		}
	}
	return out
}

// keySpace returns the namespace of a key of envState: values.SecurityKey for a
// security property, "" for a system property.
func keySpace(k string) string {
	if strings.HasPrefix(k, values.SecurityKey) {
		return values.SecurityKey
	}
	return ""
}

// every reports whether reachable code may write every key of namespace ns.
func (e *envState) every(ns string) bool {
	if ns == values.SecurityKey {
		return e.anySecurity
	}
	return e.any
}

// envRun is a run's view of the environment (nil below Correct-Env).
type envRun struct {
	envState
	// apis are the writers a dynamic call may reach with any argument, and the
	// namespace they write: System.setProperty, setProperties, getProperties and
	// methods returning its object; Security.setProperty.
	apis map[int32]string
	// watched are the sets of dynamic bundles, each with the caller of the first:
	// a member added later is checked, and its write is that caller's.
	watched map[int32]int32
	// The dynamic site being resolved and the keys its resolution took as unset.
	cur     *dynamicSite
	curKeys []string
	readers map[string][]int     // key -> indexes in solver.sites of sites that read it unset
	sites   map[int]*dynamicSite // those sites
	spans   map[int][2]int       // their bundles [first, end) in solver.bundles
	gone    map[int]bool         // site records replaced by a later resolution
	dead    map[int]bool         // bundles of those: the new resolution's include their targets
	redo    []int                // sites to resolve again
	restart bool                 // a write hit an orphan: the pass must start again
	// prev is set in an update's probe: the updated run's keys read unset. A write of
	// one in the probe has the methods whose sites read it visited again
	// (unsetReadersAgain), unless the run read it outside a dynamic site (prevOrphans).
	prev, prevOrphans map[string]bool
}

// newEnvRun returns the environment of a run at opts' level, seeded with what an
// earlier pass or run found written (nil for none).
func (s *solver) newEnvRun(seed *envState) *envRun {
	if !s.opts.Level.UsesAnalysedEnvironment() {
		return nil
	}
	e := &envRun{
		envState: envState{written: map[string]bool{}, unset: map[string]bool{}, orphans: map[string]bool{}, by: map[envWrite][]int32{},
			readWritten: map[string][]int32{}, writtenOrphans: map[string]bool{}},
		apis: map[int32]string{}, watched: map[int32]int32{},
		readers: map[string][]int{}, sites: map[int]*dynamicSite{}, spans: map[int][2]int{},
		gone: map[int]bool{}, dead: map[int]bool{},
	}
	if seed != nil {
		for w, by := range seed.by {
			e.by[w] = slices.Clone(by)
		}
		e.deriveWrites()
	}
	for _, m := range propertyWriterAPIs(s.h) {
		e.apis[m.ID] = writerSpace(m)
	}
	return e
}

// environment returns what the value analyses take the run's environment to be.
func (s *solver) environment() values.Environment {
	env := values.Environment{Values: map[string]string{}}
	if p, ok := s.a.prog.(configured); ok {
		if cfg := p.Config(); cfg != nil {
			for _, k := range cfg.SystemPropertyKeys() {
				v, _ := cfg.SystemProperty(k)
				env.Values[k] = v.Value
			}
		}
	}
	maps.Copy(env.Values, s.opts.Env)
	if s.opts.Level.ModelsJDK() {
		s.jdkBoundary(&env)
	}
	e := s.env
	if e == nil {
		return env
	}
	if p, ok := s.a.prog.(configured); ok {
		if cfg := p.Config(); cfg != nil && cfg.ConfPath(config.JavaSecurity) != "" {
			env.Security = func(k string) (string, bool) {
				v, ok := cfg.ConfProperty(config.JavaSecurity, k)
				return v.Value, ok
			}
		}
	}
	env.Machine = config.SetByJVM
	env.Written = func(k string) bool {
		w := e.every(keySpace(k)) || e.written[k]
		switch {
		case !w:
		case e.cur == nil:
			e.writtenOrphans[k] = true
		default:
			reader := s.native
			if e.cur.at.caller != nil {
				reader = e.cur.at.caller.ID
			}
			if !slices.Contains(e.readWritten[k], reader) {
				e.readWritten[k] = append(e.readWritten[k], reader)
			}
		}
		return w
	}
	env.ReadUnset = func(k string) {
		e.unset[k] = true
		if e.cur == nil {
			e.orphans[k] = true
		} else if !slices.Contains(e.curKeys, k) {
			e.curKeys = append(e.curKeys, k)
		}
	}
	return env
}

// beginSite and endSite bracket the resolution of dynamic site d, recorded at index
// i of solver.sites, and return the keys it took as unset.
func (e *envRun) beginSite(d *dynamicSite) {
	e.cur, e.curKeys = d, nil
}

func (e *envRun) endSite(i int) []string {
	keys := e.curKeys
	e.cur, e.curKeys = nil, nil
	if len(keys) == 0 {
		return nil
	}
	slices.Sort(keys)
	for _, k := range keys {
		e.readers[k] = append(e.readers[k], i)
	}
	return keys
}

// writeProperty records that reachable code may set key k, or (every) every key of
// k's namespace (k is then "" or values.SecurityKey).
func (s *solver) writeProperty(k string, every bool) {
	e := s.env
	ns := keySpace(k)
	if w := (envWrite{k, every}); !slices.Contains(e.by[w], s.cur) {
		e.by[w] = append(e.by[w], s.cur)
	}
	if e.every(ns) || !every && e.written[k] {
		return
	}
	switch {
	case !every:
		e.written[k] = true
	case ns == values.SecurityKey:
		e.anySecurity = true
	default:
		e.any = true
	}
	hit := func(key string) bool { return every && keySpace(key) == ns || key == k }
	for key := range e.unset {
		if !hit(key) {
			continue
		}
		if e.orphans[key] {
			e.restart = true
		}
		for _, i := range e.readers[key] {
			if !e.gone[i] && !slices.Contains(e.redo, i) {
				e.redo = append(e.redo, i)
			}
		}
	}
	for key := range e.prev {
		if hit(key) {
			delete(e.prev, key)
			s.unsetReadersAgain(key)
		}
	}
}

// unsetReadersAgain has an update's probe visit again the methods whose dynamic
// sites the updated graph resolved taking key as unset (Site.Unset), which the
// probe found written: their sites resolve otherwise now. (The value analyses' cached
// answers that read the key unset are those of the probe's own sites, which
// redoSites resolves again after dropping the cache.)
func (s *solver) unsetReadersAgain(key string) {
	if s.env.prevOrphans[key] {
		s.unsupported = "a changed method writes property " + key + ", which the graph took as unset outside a dynamic site"
		return
	}
	for _, st := range s.inherit.Graph.Sites {
		if st.Caller != s.native && slices.Contains(st.Unset, key) && s.changed.Add(st.Caller) {
			s.early = append(s.early, st.Caller)
		}
	}
}

// redoSites resolves again the sites whose unset keys became written, with a new
// value analyzer (its answers had taken them as unset).
func (s *solver) redoSites() {
	e := s.env
	redo := e.redo
	e.redo = nil
	s.api.values = nil
	for _, i := range redo {
		if e.gone[i] {
			continue
		}
		e.gone[i] = true
		for b := e.spans[i][0]; b < e.spans[i][1]; b++ {
			e.dead[b] = true
		}
		s.resolveSite(e.sites[i])
	}
}

// liveSites drops the records of sites resolved again from sites.
func (e *envRun) liveSites(sites []callgraph.Site) []callgraph.Site {
	if e == nil {
		return sites
	}
	return dropIndexes(sites, e.gone)
}

// liveBundles drops the bundles of site records replaced from bundles. The graph is
// then the one a run that knew the writes from its start makes: a resolution that
// took a key as unset has a subset of the targets of one that does not.
func (e *envRun) liveBundles(bundles []callgraph.Bundle) []callgraph.Bundle {
	if e == nil {
		return bundles
	}
	return dropIndexes(bundles, e.dead)
}

// dropIndexes removes the elements at the indexes in drop from xs, in place.
func dropIndexes[T any](xs []T, drop map[int]bool) []T {
	if len(drop) == 0 {
		return xs
	}
	out := xs[:0]
	for i := range xs {
		if !drop[i] {
			out = append(out, xs[i])
		}
	}
	return out
}

// modelSets reports whether at is a JDK native whose model says which system
// properties it sets (nativeSetsKeys).
func (s *solver) modelSets(at site) bool {
	return at.pc == -1 && nativeSetsKeys(s.jdk, at.caller)
}

// nativeSetsKeys reports whether m is a native whose entry in model says which
// system properties it sets (jdkmodel's sets effect): its calls of
// System.setProperty are those (applyEffects writes them), not calls with any key.
func nativeSetsKeys(model *jdkmodel.Model, m *hierarchy.Method) bool {
	if model == nil || m == nil || !m.IsNative() {
		return false
	}
	e := model.Lookup(m.Class.Name, m.Name, m.Desc)
	return e != nil && slices.ContainsFunc(e.Effects, func(x jdkmodel.Effect) bool { return x.Kind == jdkmodel.EffSets })
}

// dynamicBundle checks a bundle of a dynamic kind, of caller, for the property
// writers among its members: such a call's arguments are not followed, so it may
// write any key. The set is watched for members added later. The write is the
// caller's, whichever method the solver is visiting: a bundle may be made, and a
// set grow, while another method is visited (a lambda's creator), and an update
// keeps a write only while the node it records stays (envState.by).
func (s *solver) dynamicBundle(set, caller int32) {
	e := s.env
	if _, ok := e.watched[set]; ok || e.any && e.anySecurity {
		return
	}
	e.watched[set] = caller
	for _, id := range s.sets[set] {
		if ns, ok := e.apis[id]; ok {
			s.writePropertyBy(caller, ns, true)
		}
	}
}

// grown checks a member added to a watched set.
func (s *solver) grown(set, id int32) {
	e := s.env
	if by, ok := e.watched[set]; ok {
		if ns, ok := e.apis[id]; ok {
			s.writePropertyBy(by, ns, true)
		}
	}
}

// writePropertyBy is writeProperty for a write that node by makes.
func (s *solver) writePropertyBy(by int32, k string, every bool) {
	cur := s.cur
	s.cur = by
	s.writeProperty(k, every)
	s.cur = cur
}

// envResolver reads the plain calls of System.setProperty, setProperties and
// getProperties, and of Security.setProperty: what keys reachable code writes.
type envResolver struct{}

func (envResolver) Name() string { return "environment" }
func (envResolver) APIs() []string {
	return []string{"java/lang/System.setProperty", "java/lang/System.setProperties", "java/lang/System.getProperties",
		"java/security/Security.setProperty"}
}

func (envResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	if s.env == nil {
		return
	}
	ns := ""
	if rm.Class.Name == "java/security/Security" {
		ns = values.SecurityKey
	}
	if s.env.every(ns) && s.opts.PlainPropertyWriter == nil {
		return // nothing more to learn, unless every plain writer is asked for
	}
	every := func(ns string) {
		s.writeProperty(ns, true)
		if tell := s.opts.PlainPropertyWriter; tell != nil && at.caller != nil {
			tell(at.caller.ID, at.pc, at.line, rm)
		}
	}
	switch rm.Name {
	case "setProperty":
		keys := s.values().StringOperand(at.caller, at.pc, 0).Values()
		if keys == nil {
			every(ns)
		}
		for _, k := range keys {
			s.writeProperty(ns+k, false)
		}
	case "setProperties":
		every("")
	case "getProperties":
		keys, all := s.propertiesWrites(at)
		if all {
			every("")
		}
		for _, k := range keys {
			s.writeProperty(k, false)
		}
	}
}

// propertiesReads are the methods of Properties (and its supertypes) that only read,
// or remove: a removed property is unset, as Correct-Env takes any key to be that
// nothing sets.
var propertiesReads = map[string]bool{"remove": true,
	"getProperty": true, "get": true, "getOrDefault": true, "containsKey": true, "containsValue": true,
	"contains": true, "stringPropertyNames": true, "propertyNames": true, "size": true, "isEmpty": true,
	"list": true, "store": true, "storeToXML": true, "clone": true, "hashCode": true, "equals": true, "toString": true,
}

// propertiesWrites says what the caller of System.getProperties() at at does with the
// object: the keys it puts with literal keys, or every when it does anything but
// read it and put such keys (keeps it, passes it on, iterates a mutable view). The
// object is followed where it goes without escaping: through casts, into the
// parameters of static and private helpers, back to the callers of a method that
// returns it (GetPropertyAction.privilegedGetProperties), and out of a lambda body
// that returns it to the doPrivileged call its only capture is handed to (JNDI's
// VersionHelper.getJndiProperties).
func (s *solver) propertiesWrites(at site) (keys []string, every bool) {
	return s.objectWrites(at.caller, facts.Def{Kind: facts.DefInstr, N: int(at.pc)}, 0)
}

func (s *solver) objectWrites(m *hierarchy.Method, def facts.Def, depth int) (keys []string, every bool) {
	lf := s.localFlow(m)
	if lf == nil || depth > 6 {
		return nil, true
	}
	s.reads.ReadFacts(m)
	type use struct {
		m   *hierarchy.Method
		def facts.Def
	}
	var next []use // where the object goes on: a cast's result, a helper's parameter
	returned := false
	every = !lf.eachUse(def, func(pc int, op bytecode.Opcode, c *facts.Call, n int, operand func(int) []facts.Def) bool {
		// A virtual call on the object runs Properties' own method: the object is
		// the JDK's Properties unless setProperties replaced it, which counts as
		// writing every key.
		virtual := c != nil && n == 0 && c.Op != bytecode.Invokestatic
		switch {
		case op == bytecode.Ifnull, op == bytecode.Ifnonnull, op == bytecode.Instanceof,
			op == bytecode.Monitorenter, op == bytecode.Monitorexit: // synchronized (props) writes nothing
		case op == bytecode.Checkcast:
			next = append(next, use{m, facts.Def{Kind: facts.DefInstr, N: pc}})
		case op == bytecode.Areturn:
			returned = true
		case virtual && propertiesReads[c.Ref.Name]:
		case virtual && (c.Ref.Name == "setProperty" || c.Ref.Name == "put" || c.Ref.Name == "putIfAbsent"):
			ks, ok := lf.constStrings(operand(1))
			if !ok {
				return false
			}
			keys = append(keys, ks...)
		case c != nil && n == 1 && s.copiesArgument(c):
		case c != nil && c.Indy == nil:
			callee := s.resolveCall(c)
			if callee == nil || !boundCallee(callee) {
				return false
			}
			next = append(next, use{callee, facts.Def{Kind: facts.DefParam, N: n}})
		default:
			return false
		}
		return true
	})
	if every {
		return nil, true
	}
	for _, u := range next {
		ks, ev := s.objectWrites(u.m, u.def, depth+1)
		if ev {
			return nil, true
		}
		keys = append(keys, ks...)
	}
	if !returned {
		return keys, false
	}
	to, ok := s.returnedTo(m)
	if !ok {
		return nil, true
	}
	for _, u := range to {
		ks, ev := s.objectWrites(u.Caller, facts.Def{Kind: facts.DefInstr, N: int(s.a.prog.Facts(u.Caller).Calls[u.Call].PC)}, depth+1)
		if ev {
			return nil, true
		}
		keys = append(keys, ks...)
	}
	return keys, false
}

// copiesArgument reports whether call c only reads its argument, a map whose
// mappings it copies: Map.putAll (sysProps into a copy, as the management agent
// does), where every method the call may run is the JDK's, which does what Map
// says at Correct-JDK. An override elsewhere might keep the map.
func (s *solver) copiesArgument(c *facts.Call) bool {
	if !s.opts.Level.ModelsJDK() || c.Op == bytecode.Invokestatic || c.Ref.Name != "putAll" || c.Ref.Desc != "(Ljava/util/Map;)V" {
		return false
	}
	rm := s.resolveCall(c)
	if rm == nil || rm.Class.Origin != hierarchy.JDK {
		return false
	}
	jdk := true
	s.h.SelectSubtypes(rm.Class, rm, func(_ *hierarchy.Class, sel *hierarchy.Method) bool {
		jdk = sel.Class.Origin == hierarchy.JDK
		return jdk
	})
	return jdk
}

// eachUse calls use for each operand of an instruction of lf's method that def may
// define, other than those that only move or drop it; it stops and returns false as
// soon as use does.
func (lf *localFlow) eachUse(def facts.Def, use func(pc int, op bytecode.Opcode, c *facts.Call, n int, operand func(int) []facts.Def) bool) bool {
	ok := true
	lf.fl.EachInstr(func(pc int, op bytecode.Opcode, operand func(int) []facts.Def) {
		if !ok || moves(op) {
			return
		}
		c := lf.callAt(pc)
		// Operands beyond a call's arguments are nil: 256 bounds every descriptor.
		for n := 0; n < 256 && ok; n++ {
			defs := operand(n)
			if defs == nil {
				if c == nil && n > 3 {
					break
				}
				continue
			}
			if slices.Contains(defs, def) {
				ok = use(pc, op, c, n, operand)
			}
		}
	})
	return ok
}

// returnedTo returns the call instructions whose result is what m returns, or false
// when m's result may go where this does not follow. They are m's callers, or, for
// the run method of a privileged action (a lambda body, or an anonymous class's
// run) whose every instance is handed straight to AccessController.doPrivileged
// (which runs the action and returns its result), those doPrivileged calls. A
// method whose callers are followed becomes a writer for dynamic calls: their
// callers are not among them and may do anything with the result.
func (s *solver) returnedTo(m *hierarchy.Method) ([]values.CallRef, bool) {
	v := s.values()
	if callers, all := v.Callers(m); all {
		if s.env != nil {
			s.watchWriter(m)
		}
		return callers, true
	}
	if caps, only := v.LambdaCaptures(m); only {
		return s.privilegedRuns(caps, false)
	}
	if news, ok := s.actionInstances(m); ok {
		return s.privilegedRuns(news, true)
	}
	return nil, false
}

// watchWriter adds m, whose result objectWrites follows to m's callers, to the
// methods a dynamic call of writes every key.
func (s *solver) watchWriter(m *hierarchy.Method) {
	e := s.env
	if _, ok := e.apis[m.ID]; ok {
		return
	}
	e.apis[m.ID] = ""
	first := int32(-1) // the first such set, for a deterministic writer
	for set := range e.watched {
		if (first < 0 || set < first) && slices.Contains(s.sets[set], m.ID) {
			first = set
		}
	}
	if first >= 0 {
		s.writePropertyBy(e.watched[first], "", true)
	}
}

// privilegedRuns returns the doPrivileged calls that the actions made at the given
// instructions go to, and false when one goes anywhere else. An instruction is a
// lambda's capture, or (ctor) a constructor call whose receiver is the action.
func (s *solver) privilegedRuns(makers []values.CallRef, ctor bool) ([]values.CallRef, bool) {
	var out []values.CallRef
	for _, mk := range makers {
		lf := s.localFlow(mk.Caller)
		if lf == nil {
			return nil, false
		}
		s.reads.ReadFacts(mk.Caller)
		at := lf.f.Calls[mk.Call].PC
		actions := []facts.Def{{Kind: facts.DefInstr, N: int(at)}}
		if ctor {
			if actions = lf.operands(at)[0]; len(actions) != 1 {
				return nil, false
			}
		}
		ok := lf.eachUse(actions[0], func(pc int, _ bytecode.Opcode, c *facts.Call, n int, _ func(int) []facts.Def) bool {
			switch {
			case c == nil || n != 0:
				return false
			case ctor && int32(pc) == at: // the constructor call itself
			case c.Op == bytecode.Invokestatic && c.Ref.Class == accessController && strings.HasPrefix(c.Ref.Name, "doPrivileged"):
				i := slices.IndexFunc(lf.f.Calls, func(x facts.Call) bool { return x.PC == c.PC })
				out = append(out, values.CallRef{Caller: mk.Caller, Call: int32(i)})
			default:
				return false
			}
			return true
		})
		if !ok {
			return nil, false
		}
	}
	return out, true
}

// actionInstances returns the constructor calls that make every instance of m's
// class, when m is the run method of a class that only they can make: a
// non-public, non-serializable privileged action whose constructors are not public,
// are called by no method handle, and keep no reference to the object (they store
// into its fields and call Object's constructor). javac's anonymous classes are such.
func (s *solver) actionInstances(m *hierarchy.Method) ([]values.CallRef, bool) {
	c := m.Class
	if m.Name != "run" || !strings.HasPrefix(m.Desc, "()") || c.IsPublic() || c.Super == nil || c.Super.Name != "java/lang/Object" {
		return nil, false
	}
	action := false
	for _, i := range c.Interfaces {
		action = action || i.Name == "java/security/PrivilegedAction" || i.Name == "java/security/PrivilegedExceptionAction"
	}
	if ser := s.h.Class("java/io/Serializable"); !action || ser == nil || s.h.IsSubtype(c, ser) {
		return nil, false
	}
	var out []values.CallRef
	for _, k := range c.Methods {
		if !k.IsConstructor() {
			continue
		}
		callers, all := s.values().Callers(k)
		lf := s.localFlow(k)
		if k.IsPublic() || !all || lf == nil {
			return nil, false
		}
		s.reads.ReadFacts(k)
		keeps := !lf.eachUse(facts.Def{Kind: facts.DefParam, N: 0}, func(_ int, op bytecode.Opcode, call *facts.Call, n int, _ func(int) []facts.Def) bool {
			return n == 0 && (op == bytecode.Putfield || call != nil && call.Op == bytecode.Invokespecial && call.Ref.Class == "java/lang/Object" && call.Ref.Name == "<init>")
		})
		if keeps {
			return nil, false
		}
		out = append(out, callers...)
	}
	return out, true
}

// union returns the state of an update: the probe's findings, and the updated
// run's writes and readers but for the writers the probe visited again (visited)
// and the writes that are gone.
func (e *envRun) union(prev *envState, visited callgraph.Bitset, gone map[envWrite]bool) *envState {
	out := &envState{unset: maps.Clone(e.unset), orphans: maps.Clone(e.orphans), by: map[envWrite][]int32{},
		readWritten: map[string][]int32{}, writtenOrphans: maps.Clone(e.writtenOrphans)}
	for w, by := range e.by {
		out.by[w] = slices.Clone(by)
	}
	for k, rs := range e.readWritten {
		out.readWritten[k] = slices.Clone(rs)
	}
	if prev != nil {
		maps.Copy(out.unset, prev.unset)
		maps.Copy(out.orphans, prev.orphans)
		maps.Copy(out.writtenOrphans, prev.writtenOrphans)
		for w, by := range prev.by {
			if gone[w] {
				continue
			}
			for _, x := range keptWriters(by, visited) {
				if !slices.Contains(out.by[w], x) {
					out.by[w] = append(out.by[w], x)
				}
			}
		}
		for k, rs := range prev.readWritten {
			for _, x := range rs {
				if !slices.Contains(out.readWritten[k], x) {
					out.readWritten[k] = append(out.readWritten[k], x)
				}
			}
		}
	}
	out.deriveWrites()
	return out
}
