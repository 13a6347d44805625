package analysis

import (
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// CallResolver handles the calls of particular JDK APIs (Thread.start, Class.forName,
// Method.invoke, ...), in addition to the standard edge to the API method itself.
// Each feature is one resolver in its own file, usable by every algorithm because it
// only talks to the solver and, through it, to the algorithm (algo.Oracle).
type CallResolver interface {
	// Name identifies the resolver in edge reasons.
	Name() string
	// APIs lists the methods whose calls it handles, as "owner.name" with the internal
	// owner name ("java/lang/Class.forName"). A call matches when its resolved method,
	// or a method it overrides, is one of them.
	APIs() []string
	// Resolve adds the edges and dynamic sites of one call.
	Resolve(s *solver, at site, c *facts.Call, resolved *hierarchy.Method)
}

// A creatingResolver accounts for everything some calls of its APIs return: the
// objects a reflective instantiation creates, which its creating bundles name
// (resolved, specified or the level's fallback). Algorithms that follow values take
// such a call's result from those alone (algo.Follower.CreatesOnly), not from the
// API method's own return, which the JDK's summarised code makes any object.
type creatingResolver interface {
	returnsCreated(resolved *hierarchy.Method) bool
}

// registry maps API methods to their resolvers.
type registry struct {
	byAPI map[string][]CallResolver
}

// resolvers lists every API resolver; adding a feature means adding it here.
func allResolvers() []CallResolver {
	return []CallResolver{
		threadResolver{},
		privilegedResolver{},
		reflectResolver{},
		mhResolver{},
		proxyResolver{},
		spunResolver{},
		byteBuddyResolver{},
		sisuCloneResolver{},
		unsafeResolver{},
		serialResolver{},
		envResolver{},
		varHandleInitResolver{},
	}
}

func newRegistry() *registry {
	r := &registry{byAPI: map[string][]CallResolver{}}
	for _, res := range allResolvers() {
		for _, api := range res.APIs() {
			r.byAPI[api] = append(r.byAPI[api], res)
		}
	}
	return r
}

// apiResolvers returns the resolvers interested in calls of rm, looking through the
// methods rm overrides (a call of an overriding loadClass is still a loading site),
// as 1 + their index in a.apiLists (apiList), or 0 for none: call plans hold it.
func (a *Analyzer) apiResolvers(rm *hierarchy.Method) int32 {
	a.mu.Lock()
	idx, ok := a.apiCache[rm.ID]
	a.mu.Unlock()
	if ok {
		return idx
	}
	var list []CallResolver
	seen := map[CallResolver]bool{}
	add := func(m *hierarchy.Method) {
		for _, r := range a.resolvers.byAPI[m.Class.Name+"."+m.Name] {
			if !seen[r] {
				seen[r] = true
				list = append(list, r)
			}
		}
	}
	add(rm)
	if !rm.IsStatic() && !rm.IsPrivate() && rm.Name != "<init>" {
		a.h.Supertypes(rm.Class, func(c *hierarchy.Class) bool {
			if c != rm.Class {
				if m := c.Method(rm.Name, rm.Desc); m != nil {
					add(m)
				}
			}
			return true
		})
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if idx, ok := a.apiCache[rm.ID]; ok {
		return idx // another goroutine was first
	}
	if len(list) > 0 {
		a.apiLists = append(a.apiLists, list)
		idx = int32(len(a.apiLists))
	}
	a.apiCache[rm.ID] = idx
	return idx
}

// apiList returns the resolvers of a call plan's apis (apiResolvers).
func (a *Analyzer) apiList(idx int32) []CallResolver {
	if idx == 0 {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.apiLists[idx-1]
}
