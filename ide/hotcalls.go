package ide

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Call-hierarchy answers about hot methods (String.valueOf has tens of thousands of
// callers in the JDK, a call of Object.toString thousands of targets) are capped at
// Settings.MaxCallItems entries, as gopls and rust-analyzer cap theirs. The last
// entry is then a "more" item: a real CallHierarchyItem that points at the method
// the answer is about (so that a client that opens it lands somewhere meaningful),
// whose name says how many entries were left out and whose data carries a cursor,
// so that expanding it lists the next page. Capped answers are sorted by entryKey, so
// that pages neither overlap nor depend on the order of the graph's bundles, and a
// cursor stays meaningful in the next snapshot.

// entryKey orders the entries of a capped answer: application, then library, then
// JDK code (real call sites before conservative fallbacks, for callers), then by
// class, method name and descriptor, which keeps the callers of each class together.
type entryKey struct {
	Rank  uint8  `json:"rank"`
	Class string `json:"class"`
	Name  string `json:"name"`
	Desc  string `json:"desc"`
}

func compareKeys(a, b *entryKey) int {
	if c := cmp.Compare(a.Rank, b.Rank); c != 0 {
		return c
	}
	// strings.Compare, not cmp.Compare: one pass over the bytes instead of two, and
	// a page of 100 among 100,000 targets is mostly string comparisons.
	if c := strings.Compare(a.Class, b.Class); c != 0 {
		return c
	}
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return strings.Compare(a.Desc, b.Desc)
}

// Ranks: origin*2, plus one for a caller reached only through conservative
// fallbacks. The NativeMethod node ranks with the JDK.
const numRanks = 2*int(hierarchy.JDK) + 2

func nodeKey(snap *Snapshot, n int32, fallback bool) entryKey {
	m := snap.Method(n)
	if m == nil {
		return entryKey{Rank: rankOf(hierarchy.JDK, fallback)}
	}
	return entryKey{Rank: rankOf(m.Class.Origin, fallback), Class: m.Class.Name, Name: m.Name, Desc: m.Desc}
}

func rankOf(o hierarchy.Origin, fallback bool) uint8 {
	r := 2 * uint8(o)
	if fallback {
		r++
	}
	return r
}

// callPage is what a "more" item's data adds to the methodRef of the method it
// points at: the direction it continues, the last entry listed before it and, for
// outgoing calls, the call (the Bundle-th bundle of the method, at PC) whose
// targets it continues.
type callPage struct {
	Dir    string   `json:"dir"` // "incoming" or "outgoing"
	After  entryKey `json:"after"`
	Bundle int      `json:"bundle,omitempty"`
	PC     int32    `json:"pc,omitempty"`
}

type moreData struct {
	methodRef
	More *callPage `json:"more,omitempty"`
	Note bool      `json:"note,omitempty"` // an item that only says something (chaCallersItem)
}

// pageOf returns the paging state of an item sent back by the client: nil for an
// ordinary item, and for a "more" item of the other direction (a client that shows
// the outgoing calls of an incoming "more" item gets the method's own).
func pageOf(it *CallItem, dir string) *callPage {
	if len(it.Data) == 0 {
		return nil
	}
	var d moreData
	if json.Unmarshal(it.Data, &d) != nil || d.More == nil || d.More.Dir != dir {
		return nil
	}
	return d.More
}

// firstAfter selects, among count entries, the at most k smallest by key that come
// after the cursor (all entries when after is nil), sorted, in O(count·log k) so
// that the first page of 100 among 100,000 does not sort them all. It also counts
// the entries after the cursor per rank.
func firstAfter(count int, key func(i int) entryKey, after *entryKey, k int) (idx []int, byRank [numRanks]int) {
	type entry struct {
		key entryKey
		i   int
	}
	// heap is a max-heap on key: its top is the entry to drop when a smaller comes.
	heap := make([]entry, 0, min(k, count))
	down := func(j int) {
		for {
			l, big := 2*j+1, j
			if l < len(heap) && compareKeys(&heap[l].key, &heap[big].key) > 0 {
				big = l
			}
			if r := l + 1; r < len(heap) && compareKeys(&heap[r].key, &heap[big].key) > 0 {
				big = r
			}
			if big == j {
				return
			}
			heap[j], heap[big] = heap[big], heap[j]
			j = big
		}
	}
	for i := range count {
		kk := key(i)
		if after != nil && compareKeys(&kk, after) <= 0 {
			continue
		}
		byRank[kk.Rank]++
		switch {
		case len(heap) < k:
			heap = append(heap, entry{kk, i})
			for j := len(heap) - 1; j > 0; {
				p := (j - 1) / 2
				if compareKeys(&heap[j].key, &heap[p].key) <= 0 {
					break
				}
				heap[j], heap[p] = heap[p], heap[j]
				j = p
			}
		case k > 0 && compareKeys(&kk, &heap[0].key) < 0:
			heap[0] = entry{kk, i}
			down(0)
		}
	}
	slices.SortFunc(heap, func(a, b entry) int { return compareKeys(&a.key, &b.key) })
	idx = make([]int, len(heap))
	for j, e := range heap {
		idx[j] = e.i
	}
	return idx, byRank
}

// leftOut returns the per-rank counts of the entries after the cursor that a page
// does not list.
func leftOut(byRank [numRanks]int, listed []entryKey) (rest [numRanks]int, total int) {
	rest = byRank
	for i := range listed {
		rest[listed[i].Rank]--
	}
	for _, c := range rest {
		total += c
	}
	return rest, total
}

// moreItem returns the "more" item of an answer about node n: the item of n itself
// (a valid location clients can open and expand), named by what was left out, with
// the cursor that lists the next page.
func (s *Session) moreItem(snap *Snapshot, n int32, name, detail string, page *callPage) CallItem {
	it := s.Item(snap, n)
	d := moreData{More: page}
	if m := snap.Method(n); m != nil {
		d.methodRef = refOf(m)
	} else {
		d.methodRef = methodRef{Native: true}
	}
	it.Name = name
	it.Detail = detail
	it.Data = mustJSON(d)
	return it
}

// ExportCommand is the server's command that writes a whole graph: capped answers
// name it.
const ExportCommand = "jcg.exportCallGraph"

// moreCallersDetail explains a "more callers" item: where the callers left out
// are, and how to see them.
func moreCallersDetail(rest [numRanks]int, next int) string {
	jdk := rest[rankOf(hierarchy.JDK, false)] + rest[rankOf(hierarchy.JDK, true)]
	fb := 0
	for o := hierarchy.Application; o <= hierarchy.JDK; o++ {
		fb += rest[rankOf(o, true)]
	}
	return fmt.Sprintf("not listed: %d in the JDK, %d only through conservative fallbacks. Expand for the next %d (sorted: application, library, JDK; by class), or run \"JCG: Export Call Graph\" (%s) for all",
		jdk, fb, next, ExportCommand)
}

// moreTargetsDetail explains a "more targets" item; rest is nil when none of the
// call's targets is listed (the answer was full), and then not counted by origin.
func moreTargetsDetail(rest *[numRanks]int, next int) string {
	how := fmt.Sprintf("(sorted: application, library, JDK; by class); the call's hover counts them, \"JCG: Export Call Graph\" (%s) lists them all", ExportCommand)
	if rest == nil {
		return fmt.Sprintf("not listed: this answer is full. Expand for the first %d %s", next, how)
	}
	jdk := rest[rankOf(hierarchy.JDK, false)]
	return fmt.Sprintf("not listed: %d in the JDK. Expand for the next %d %s", jdk, next, how)
}

// bundleName names what a bundle comes from for a "more targets" item: the call
// as hovers name it ("java.lang.Object.toString()"), else the edge kind ("the
// reflection edge at line 12").
func bundleName(snap *Snapshot, caller *hierarchy.Method, b *callgraph.Bundle) string {
	if caller != nil && b.Call >= 0 {
		if f := snap.Index().Facts(caller); f != nil && int(b.Call) < len(f.Calls) {
			return callName(&f.Calls[b.Call])
		}
	}
	name := "the " + snap.Graph.Reasons[b.Reason].Kind.String() + " edge"
	if b.Line > 0 {
		name += fmt.Sprintf(" at line %d", b.Line)
	}
	return name
}
