package typeflow

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Containers (TFA with the JDK summarised): a collection or map of java.util that
// the program creates is an object of its own, one ID per allocation, with a node
// of its elements (a map's values) and one of a map's keys. With the JDK
// summarised, list.get(i) would be any object of any class created anywhere; the
// collection API says what its calls do with the contents, so the program's calls
// on its own containers are that model rather than calls into summarised code:
// add and put store their arguments into the contents, get, next and poll return
// them, addAll copies another container's, and iterator(), keySet(), values()
// and entrySet() return views sharing them (view), whose next, getKey, getValue
// and setValue are modelled too, as are a stream's (stream(), filter, map,
// collect(toList())...). The factories List.of, Set.of, Map.of, Optional.of and
// Arrays.asList, and toArray and a stream's map and collect, create containers
// (and arrays) at their calls (siteView, siteArray). A call the model does not
// know (spliterator, a stream's flatMap or reduce, ...) hands the container to
// summarised code: it escapes as an array does, and its contents are any object
// from then on. So do containers stored where such code may read them (a field it
// may read, an array or container that escaped).
//
// The contents themselves are handed to summarised code by nearly every call
// (contains and equals call the elements' equals, toString theirs): the arrays
// and containers among them escape (elems and keys feed the sink), while classes
// and lambdas, which summarised code cannot change, keep their precision.
//
// Where a modelled call's receiver is not one of the program's containers or
// views (a container the JDK made, a lambda, a value that is top), the call is
// what summarised code does: its result is any object, and what it is handed to
// store escapes (everything it is handed, for a class outside java.util).

// family is what kind of container a java.util class is.
type family uint8

const (
	notContainer family = iota
	collection          // lists, deques and sets: elements
	mapping             // maps: keys and values
)

// containerFamily returns the family of a class the model knows.
func containerFamily(name string) family {
	switch name {
	case "java/util/ArrayList", "java/util/LinkedList", "java/util/ArrayDeque", "java/util/Vector", "java/util/Stack",
		"java/util/HashSet", "java/util/LinkedHashSet", "java/util/TreeSet", "java/util/PriorityQueue",
		"java/util/concurrent/CopyOnWriteArrayList", "java/util/concurrent/CopyOnWriteArraySet",
		"java/util/concurrent/ConcurrentLinkedQueue", "java/util/concurrent/ConcurrentLinkedDeque",
		"java/util/concurrent/ConcurrentSkipListSet", "java/util/concurrent/LinkedBlockingQueue",
		"java/util/concurrent/LinkedBlockingDeque", "java/util/concurrent/ArrayBlockingQueue",
		"java/util/concurrent/PriorityBlockingQueue", "java/util/concurrent/LinkedTransferQueue":
		return collection
	case "java/util/HashMap", "java/util/LinkedHashMap", "java/util/TreeMap", "java/util/Hashtable",
		"java/util/IdentityHashMap", "java/util/WeakHashMap", "java/util/EnumMap",
		"java/util/concurrent/ConcurrentHashMap", "java/util/concurrent/ConcurrentSkipListMap":
		// ConcurrentHashMap's views add to the map: keySet(V)'s add puts the key
		// with V (the effect of keySet(V) stores V), and an add to its entrySet
		// puts the entry's key and value (apply lets the map escape).
		return mapping
	}
	return notContainer
}

// effect is what a modelled call does with the contents of the container (or
// view) it is called on. Operands are numbered as facts.Flow numbers them: the
// receiver is 0.
type effect struct {
	store    int32 // the operand stored into the elements (a map's values); 0 for none
	storeKey int32 // the operand stored into a map's keys
	load     bool  // the result is an element (a map's value)
	loadKey  bool  // the result is a map's key
	also     int32 // the result is also this operand (getOrDefault's default)
	bulk     int32 // the operand whose contents join the container's (addAll, putAll, copy constructors)
	view     bool  // the result is a view (an iterator, an enumeration, a map's keySet...) over the elements
	keys     bool  // a view over a map's keys
	entries  bool  // a view over a map's entries, each with the map's keys and values
	whole    bool  // a view over all of it, of an open class (an unmodifiable wrapper)
	// fn is the operand whose function's results are stored into the elements (a
	// map's values: computeIfAbsent, merge, replaceAll); 0 for none. Only a lambda
	// whose body the program has is followed (lambdaBody); with any other function
	// the container escapes.
	fn int32
	// mapped is the operand whose function's results are the elements of the
	// view the call returns (a stream's map); 0 for none.
	mapped int32
	// anyResult: the result is any object (a stream's mapToInt: an IntStream the
	// JDK makes), though the call keeps the contents.
	anyResult bool
	// collect is the operand of a stream's collector: with one of Collectors'
	// toList and friends (a collector object of the model's), the result is a
	// new container of the stream's elements; with any other, the stream escapes.
	collect int32
	// array: the result is a new array at the call holding the elements
	// (toArray); fill is the operand array the call copies the elements into
	// (toArray(T[]), which returns it when it is large enough: also).
	array bool
	fill  int32
}

// yields reports whether a call with effect e returns an object (not a
// primitive, nor nothing).
func (e effect) yields() bool {
	return e.load || e.loadKey || e.view || e.also != 0 || e.mapped != 0 || e.anyResult || e.collect != 0 || e.array
}

// collectionsEffects holds the modelled static methods of java.util.Collections,
// by name and descriptor, whose first parameter is the container: the
// unmodifiable wrappers read it through, and sorting, reversing and shuffling
// keep its elements. It is never written.
var collectionsEffects = func() map[string]effect {
	e := map[string]effect{}
	for _, k := range []string{"Collection", "List", "Set", "SortedSet", "NavigableSet", "Map", "SortedMap", "NavigableMap"} {
		e["unmodifiable"+k+"(Ljava/util/"+k+";)Ljava/util/"+k+";"] = effect{view: true, whole: true}
	}
	for _, sig := range []string{"sort(Ljava/util/List;)V", "sort(Ljava/util/List;Ljava/util/Comparator;)V",
		"reverse(Ljava/util/List;)V", "shuffle(Ljava/util/List;)V", "swap(Ljava/util/List;II)V"} {
		e[sig] = effect{}
	}
	return e
}()

const collectionsClass = "java/util/Collections"

// optionalClass is Optional: a container of at most one element, whose effects
// are its own (optionalEffects), as its get() is also Supplier's.
const optionalClass = "java/util/Optional"

// optionalEffects holds the modelled methods of Optional by name and descriptor.
// It is never written.
var optionalEffects = func() map[string]effect {
	const obj = "Ljava/lang/Object;"
	e := map[string]effect{
		"orElse(" + obj + ")" + obj:                      {load: true, also: 1},
		"orElseGet(Ljava/util/function/Supplier;)" + obj: {load: true, fn: 1},
		"isPresent()Z": {},
		"isEmpty()Z":   {},
		"ifPresent(Ljava/util/function/Consumer;)V":                           {},
		"ifPresentOrElse(Ljava/util/function/Consumer;Ljava/lang/Runnable;)V": {},
	}
	for _, sig := range []string{"get()" + obj, "orElseThrow()" + obj, "orElseThrow(Ljava/util/function/Supplier;)" + obj} {
		e[sig] = effect{load: true}
	}
	return e
}()

// effects holds the modelled calls by name, then descriptor: the collection
// API's methods whose effect on the contents its specification states, for every
// container class above. It is never written. (Two levels: the lookups, made for
// every member of every set at modelled sites, need no concatenated key.)
var effects = func() map[string]map[string]effect {
	e := map[string]map[string]effect{}
	put := func(eff effect, sigs ...string) {
		for _, s := range sigs {
			i := strings.IndexByte(s, '(')
			if e[s[:i]] == nil {
				e[s[:i]] = map[string]effect{}
			}
			e[s[:i]][s[i:]] = eff
		}
	}
	const obj = "Ljava/lang/Object;"
	put(effect{}, // what neither stores, returns nor hands out the contents
		"<init>()V", "<init>(I)V", "<init>(IF)V", "<init>(IFZ)V", "<init>(Ljava/util/Comparator;)V",
		"<init>(ILjava/util/Comparator;)V",
		"size()I", "isEmpty()Z", "clear()V", "contains("+obj+")Z", "containsKey("+obj+")Z",
		"containsValue("+obj+")Z", "containsAll(Ljava/util/Collection;)Z", "indexOf("+obj+")I",
		"lastIndexOf("+obj+")I", "remove("+obj+")Z", "removeAll(Ljava/util/Collection;)Z",
		"retainAll(Ljava/util/Collection;)Z", "removeFirstOccurrence("+obj+")Z",
		"removeLastOccurrence("+obj+")Z", "ensureCapacity(I)V", "trimToSize()V", "capacity()I",
		"removeAllElements()V", "removeElementAt(I)V", "removeElement("+obj+")Z", "search("+obj+")I",
		"empty()Z", "hasNext()Z", "hasPrevious()Z", "hasMoreElements()Z", "nextIndex()I",
		"previousIndex()I", "remove()V", "sort(Ljava/util/Comparator;)V",
		"<init>(Ljava/lang/Class;)V", "<init>(IZ)V", "<init>(IFI)V", // EnumMap, ArrayBlockingQueue, ConcurrentHashMap
		"remainingCapacity()I", "mappingCount()J")
	put(effect{store: 1}, "add("+obj+")Z", "add("+obj+")V", "addFirst("+obj+")V", "addLast("+obj+")V",
		"offer("+obj+")Z", "offerFirst("+obj+")Z", "offerLast("+obj+")Z", "push("+obj+")V",
		"set("+obj+")V", "addElement("+obj+")V", "insertElementAt("+obj+"I)V", "setElementAt("+obj+"I)V",
		"put("+obj+")V", "putFirst("+obj+")V", "putLast("+obj+")V", "transfer("+obj+")V", "tryTransfer("+obj+")Z",
		"offer("+obj+"JLjava/util/concurrent/TimeUnit;)Z", "offerFirst("+obj+"JLjava/util/concurrent/TimeUnit;)Z",
		"offerLast("+obj+"JLjava/util/concurrent/TimeUnit;)Z")
	put(effect{store: 2}, "add(I"+obj+")V")
	put(effect{store: 1, load: true}, "push("+obj+")"+obj)
	put(effect{store: 2, load: true}, "set(I"+obj+")"+obj, "replace("+obj+obj+")"+obj)
	put(effect{storeKey: 1, store: 2, load: true}, "put("+obj+obj+")"+obj, "putIfAbsent("+obj+obj+")"+obj)
	put(effect{load: true}, "get(I)"+obj, "remove(I)"+obj, "remove()"+obj, "removeFirst()"+obj,
		"removeLast()"+obj, "poll()"+obj, "pollFirst()"+obj, "pollLast()"+obj, "peek()"+obj,
		"peekFirst()"+obj, "peekLast()"+obj, "pop()"+obj, "element()"+obj, "getFirst()"+obj,
		"getLast()"+obj, "first()"+obj, "last()"+obj, "firstElement()"+obj, "lastElement()"+obj,
		"elementAt(I)"+obj, "floor("+obj+")"+obj, "ceiling("+obj+")"+obj, "higher("+obj+")"+obj,
		"lower("+obj+")"+obj, "next()"+obj, "previous()"+obj, "nextElement()"+obj,
		"get("+obj+")"+obj, "remove("+obj+")"+obj, "take()"+obj, "takeFirst()"+obj, "takeLast()"+obj,
		"poll(JLjava/util/concurrent/TimeUnit;)"+obj, "pollFirst(JLjava/util/concurrent/TimeUnit;)"+obj,
		"pollLast(JLjava/util/concurrent/TimeUnit;)"+obj)
	put(effect{load: true, also: 2}, "getOrDefault("+obj+obj+")"+obj)
	put(effect{loadKey: true}, "firstKey()"+obj, "lastKey()"+obj, "floorKey("+obj+")"+obj,
		"ceilingKey("+obj+")"+obj, "higherKey("+obj+")"+obj, "lowerKey("+obj+")"+obj)
	put(effect{bulk: 1}, "addAll(Ljava/util/Collection;)Z", "putAll(Ljava/util/Map;)V",
		"<init>(Ljava/util/Collection;)V", "<init>(Ljava/util/Map;)V", "<init>(Ljava/util/SortedSet;)V",
		"<init>(Ljava/util/SortedMap;)V", "<init>(Ljava/util/PriorityQueue;)V")
	put(effect{bulk: 2}, "addAll(ILjava/util/Collection;)Z")
	put(effect{view: true}, "iterator()Ljava/util/Iterator;", "listIterator()Ljava/util/ListIterator;",
		"listIterator(I)Ljava/util/ListIterator;", "descendingIterator()Ljava/util/Iterator;",
		"elements()Ljava/util/Enumeration;")
	put(effect{view: true, keys: true}, "keys()Ljava/util/Enumeration;", "keySet()Ljava/util/Set;",
		"keySet()Ljava/util/concurrent/ConcurrentHashMap$KeySetView;")
	// ConcurrentHashMap.keySet(V): a view of the keys whose add puts V as the value.
	put(effect{store: 1, view: true, keys: true}, "keySet("+obj+")Ljava/util/concurrent/ConcurrentHashMap$KeySetView;")
	put(effect{view: true}, "values()Ljava/util/Collection;")
	put(effect{view: true, entries: true}, "entrySet()Ljava/util/Set;")
	// The functional operations: the JDK hands the function the key and the
	// elements (which feed the sink: arrays and containers among them escaped),
	// and stores what it returns.
	put(effect{}, "forEach(Ljava/util/function/Consumer;)V", "forEach(Ljava/util/function/BiConsumer;)V",
		"removeIf(Ljava/util/function/Predicate;)Z")
	put(effect{storeKey: 1, fn: 2, load: true}, "computeIfAbsent("+obj+"Ljava/util/function/Function;)"+obj,
		"compute("+obj+"Ljava/util/function/BiFunction;)"+obj)
	put(effect{fn: 2, load: true}, "computeIfPresent("+obj+"Ljava/util/function/BiFunction;)"+obj)
	put(effect{storeKey: 1, store: 2, fn: 3, load: true}, "merge("+obj+obj+"Ljava/util/function/BiFunction;)"+obj)
	put(effect{fn: 1}, "replaceAll(Ljava/util/function/UnaryOperator;)V", "replaceAll(Ljava/util/function/BiFunction;)V")
	// Streams: a collection's stream is a view of its elements, and so is what
	// the operations that keep elements return (filter, sorted, limit...), and
	// findFirst's Optional; map's is a view of what its function returns, and
	// collect's with Collectors.toList a new list of the elements. Any other call
	// (flatMap, reduce, another collector) lets the stream escape.
	const stream = "Ljava/util/stream/Stream;"
	put(effect{view: true}, "stream()"+stream, "parallelStream()"+stream,
		"filter(Ljava/util/function/Predicate;)"+stream, "distinct()"+stream, "sorted()"+stream,
		"sorted(Ljava/util/Comparator;)"+stream, "limit(J)"+stream, "skip(J)"+stream,
		"peek(Ljava/util/function/Consumer;)"+stream, "takeWhile(Ljava/util/function/Predicate;)"+stream,
		"dropWhile(Ljava/util/function/Predicate;)"+stream, "parallel()Ljava/util/stream/BaseStream;",
		"sequential()Ljava/util/stream/BaseStream;", "unordered()Ljava/util/stream/BaseStream;",
		"findFirst()Ljava/util/Optional;", "findAny()Ljava/util/Optional;",
		"min(Ljava/util/Comparator;)Ljava/util/Optional;", "max(Ljava/util/Comparator;)Ljava/util/Optional;",
		"toList()Ljava/util/List;")
	put(effect{mapped: 1}, "map(Ljava/util/function/Function;)"+stream)
	// toArray: a new array of the elements, or the one given, filled.
	put(effect{array: true}, "toArray()[Ljava/lang/Object;", "toArray(Ljava/util/function/IntFunction;)[Ljava/lang/Object;")
	put(effect{array: true, fill: 1, also: 1}, "toArray([Ljava/lang/Object;)[Ljava/lang/Object;")
	put(effect{collect: 1}, "collect(Ljava/util/stream/Collector;)"+obj)
	put(effect{}, "forEachOrdered(Ljava/util/function/Consumer;)V", "count()J",
		"anyMatch(Ljava/util/function/Predicate;)Z", "allMatch(Ljava/util/function/Predicate;)Z",
		"noneMatch(Ljava/util/function/Predicate;)Z")
	put(effect{anyResult: true}, "mapToInt(Ljava/util/function/ToIntFunction;)Ljava/util/stream/IntStream;",
		"mapToLong(Ljava/util/function/ToLongFunction;)Ljava/util/stream/LongStream;",
		"mapToDouble(Ljava/util/function/ToDoubleFunction;)Ljava/util/stream/DoubleStream;")
	put(effect{loadKey: true}, "getKey()"+obj) // a map's entry
	put(effect{load: true}, "getValue()"+obj)
	put(effect{store: 1, load: true}, "setValue("+obj+")"+obj)
	return e
}()

// modelledMember reports whether the container model stands for summarised
// member m where a modelled call of the program reaches it: its operands and
// result are linked by the model (modelCall), not as parameters and return.
func (o *oracle) modelledMember(m *hierarchy.Method) bool {
	if !o.isSummarised(m) {
		return false
	}
	if m.IsStatic() {
		if _, ok := factoryOf(m.Class.Name, m.Name, m.Desc); ok {
			return true
		}
		if m.Class.Name == collectorsClass {
			return collectorOf(m.Name, m.Desc)
		}
		if m.Class.Name == arraysClass {
			return m.Name+m.Desc == asListSig
		}
		if m.Class.Name != collectionsClass {
			return false
		}
		_, ok := collectionsEffects[m.Name+m.Desc]
		return ok
	}
	if m.Class.Name == optionalClass {
		_, ok := optionalEffects[m.Name+m.Desc]
		return ok
	}
	_, ok := effects[m.Name][m.Desc]
	return ok
}

// containerNode returns the node of what the new at pc in m pushes when it
// creates a container: the container, with nodes of its contents.
func (o *oracle) containerNode(m *hierarchy.Method, pc int32, c *hierarchy.Class, fam family) int32 {
	id, ok := o.extraIDs[siteKey{m.ID, pc}]
	if !ok {
		x := extraObj{kind: objContainer, m: m, pc: pc, cls: c, elems: o.newNode()}
		o.link(x.elems, o.sink, noFilter)
		if fam == mapping {
			x.keys = o.newNode()
			o.link(x.keys, o.sink, noFilter)
		}
		id = o.newExtra(x)
	}
	n := o.newNode()
	o.containers[n] = id
	o.add(n, id)
	return n
}

// isContainer reports whether node id is a new container's (containerNode).
func (o *oracle) isContainer(id int32) bool {
	_, ok := o.containers[id]
	return ok
}

// viewPart is what of its container a view walks.
type viewPart uint8

const (
	elementsPart viewPart = iota // the elements, a map's values
	keysPart                     // a map's keys
	entriesPart                  // a map's entries
	wholePart                    // all of it: the elements and a map's keys
)

// viewKey names a view: what it is a view of, its class's ID (-1 for a view of
// an open class) and the part it walks.
type viewKey struct {
	of, class int32
	part      viewPart
}

// view returns the ID of the view of class c over a part of container or view
// of. A view whose class its creating method does not tell (c nil: HashMap's
// keySet, cached in a field) is of an open class: to questions about classes it
// is any created object of their type, it passes every filter (a cast to the
// view's class succeeds), and the model follows its contents all the same.
// A view of the entries has an open entry object as its elements, with the map's
// keys and values: getKey, getValue and setValue are modelled calls.
func (o *oracle) view(of int32, c *hierarchy.Class, part viewPart) int32 {
	k := viewKey{of, -1, part}
	if c != nil {
		k.class = c.ID
	}
	if id, ok := o.views[k]; ok {
		return id
	}
	x := o.extra[of-o.nc]
	v := extraObj{kind: objView, cls: c, elems: x.elems, of: of}
	switch part {
	case wholePart:
		v.keys = x.keys
	case keysPart:
		v.elems = x.keys
	case entriesPart:
		entry := o.newExtra(extraObj{kind: objView, elems: x.elems, keys: x.keys, of: of})
		v.elems = o.newNode()
		o.add(v.elems, entry)
		v.entry = entry
	}
	id := o.newExtra(v)
	o.views[k] = id
	return id
}

// openClass reports whether ID c is a view of an open class (view).
func (o *oracle) openClass(c int32) bool {
	x := o.extra[c-o.nc]
	return x.kind == objView && x.cls == nil
}

// modelledCall returns what call c resolves to and its effect when the model
// stands for it: a call of the collection API by instance invoke, with the JDK
// summarised. Then modelledMember's members of its target sets are linked by
// the model alone (result, linkMember): modelCall links its operands and result.
func (o *oracle) modelledCall(c *facts.Call) (mR *hierarchy.Method, eff effect, ok bool) {
	switch {
	case c.Op == bytecode.Invokestatic && c.Ref.Class == collectionsClass:
		eff, ok = collectionsEffects[c.Ref.Name+c.Ref.Desc]
	case c.Op == bytecode.Invokestatic && c.Ref.Class == collectorsClass:
		ok = collectorOf(c.Ref.Name, c.Ref.Desc)
	case c.Op == bytecode.Invokestatic && c.Ref.Class == arraysClass:
		ok = c.Ref.Name+c.Ref.Desc == asListSig
	case c.Op == bytecode.Invokestatic:
		_, ok = factoryOf(c.Ref.Class, c.Ref.Name, c.Ref.Desc)
	case c.Ref.Class == optionalClass:
		eff, ok = optionalEffects[c.Ref.Name+c.Ref.Desc]
	case c.Op != bytecode.Invokestatic:
		eff, ok = effects[c.Ref.Name][c.Ref.Desc]
	}
	if !ok || o.summarised == nil || !standard(c.Op) {
		return nil, eff, false
	}
	decl := o.h.Class(c.Ref.Class)
	if decl == nil || decl.Phantom {
		return nil, eff, false
	}
	mR, err := o.h.ResolveMethod(decl, c.Ref.Name, c.Ref.Desc, c.Op == bytecode.Invokeinterface || c.Ref.Interface)
	if err != nil {
		return nil, eff, false
	}
	return mR, eff, true
}

// modelCall links modelled call c in caller, once: the effect on each container
// or view its receiver may be, and for each other object whose method is a
// modelledMember what summarised code would do.
func (o *oracle) modelCall(caller *hierarchy.Method, c *facts.Call) {
	k := siteKey{caller.ID, c.PC}
	if o.modelAsked[k] {
		return
	}
	mR, eff, ok := o.modelledCall(c)
	if !ok {
		return
	}
	o.modelAsked[k] = true
	def := int32(-1)
	if r := returnDesc(c.Ref.Desc); len(r) > 0 && (r[0] == 'L' || r[0] == '[') && !o.createsOnly[k] {
		def = o.def(caller, c.PC)
	}
	if fac, ok := factoryOf(c.Ref.Class, c.Ref.Name, c.Ref.Desc); ok && c.Op == bytecode.Invokestatic {
		o.factoryCall(caller, c, mR, fac, def)
		return
	}
	if c.Op == bytecode.Invokestatic && c.Ref.Class == collectorsClass {
		o.collectorCall(caller, c, def)
		return
	}
	if c.Op == bytecode.Invokestatic && c.Ref.Class == arraysClass {
		o.asListCall(caller, c, mR, def)
		return
	}
	operand := func(n int32) int32 { return o.operand(caller, c.PC, n) }
	// summarisedCall is what summarised code does for a receiver the model does
	// not follow: it returns any object, and keeps what it is handed to store.
	// java.util's classes keep nothing else (sel: the method the receiver
	// selects); code of other classes, or not known, may keep all it is handed.
	summarisedCall := func(sel *hierarchy.Method) {
		if def >= 0 && eff.yields() {
			o.link(o.any, def, noFilter)
		}
		if sel == nil || !strings.HasPrefix(sel.Class.Name, "java/util/") {
			eachRefOperand(c, func(n int32) {
				if n > 0 {
					o.link(operand(n), o.any, noFilter)
				}
			})
			return
		}
		for _, n := range []int32{eff.store, eff.storeKey, eff.bulk, eff.fill} {
			if n != 0 {
				o.link(operand(n), o.any, noFilter) // arrays and containers escape
			}
		}
	}
	// The container is the receiver, or a static method's first argument.
	t := o.h.Class(c.Ref.Class)
	if mR.IsStatic() {
		t = o.h.Object()
	}
	o.ask(sub{n: operand(0), t: t, every: true, onTop: func() { summarisedCall(nil) }, objs: func(r int32) {
		if r < o.nc {
			sel := mR // invokespecial and invokestatic do not dispatch
			if c.Op != bytecode.Invokespecial && c.Op != bytecode.Invokestatic {
				sel = o.h.Select(o.h.Classes()[r], mR)
			}
			if sel != nil && o.modelledMember(sel) {
				summarisedCall(sel)
			}
			return
		}
		if x := o.extra[r-o.nc]; x.kind != objContainer && x.kind != objView {
			summarisedCall(nil)
			return
		}
		o.apply(r, eff, caller, c, mR, def)
	}})
}

// apply links effect eff of the call c in caller on container or view r.
func (o *oracle) apply(r int32, eff effect, caller *hierarchy.Method, c *facts.Call, mR *hierarchy.Method, def int32) {
	x := o.extra[r-o.nc]
	operand := func(n int32) int32 { return o.operand(caller, c.PC, n) }
	if x.entry != 0 && (eff.store != 0 || eff.bulk != 0) {
		// An add to a map's entry set (ConcurrentHashMap's puts the entry's key and
		// value) writes what the model does not follow into the map.
		o.escaped(x.entry, unmodelled)
	}
	if eff.store != 0 {
		o.link(operand(eff.store), x.elems, noFilter)
	}
	if eff.storeKey != 0 && x.keys != 0 {
		o.link(operand(eff.storeKey), x.keys, noFilter)
	}
	if def >= 0 {
		switch {
		case eff.load:
			o.link(x.elems, def, noFilter)
		case eff.loadKey && x.keys != 0:
			o.link(x.keys, def, noFilter)
		case eff.view:
			o.viewsOf(r, x, eff, mR, def)
		}
		if eff.also != 0 {
			o.link(operand(eff.also), def, noFilter)
		}
		if eff.anyResult {
			o.link(o.any, def, noFilter)
		}
		if eff.mapped != 0 {
			v := o.siteView(caller, c.PC, nil, false)
			o.fnResults(operand(eff.mapped), o.extra[v-o.nc].elems)
			o.add(def, v)
		}
		if eff.collect != 0 {
			o.collectInto(operand(eff.collect), r, caller, c.PC, def)
		}
		if eff.array {
			o.add(def, o.siteArray(caller, c.PC, x.elems))
		}
	} else if eff.collect != 0 {
		o.escapeUnlessCollector(operand(eff.collect), r)
	}
	if eff.bulk != 0 {
		o.copyInto(operand(eff.bulk), r)
	}
	if eff.fn != 0 {
		o.fnResults(operand(eff.fn), x.elems)
	}
	if eff.fill != 0 {
		o.arrays(operand(eff.fill), func(elems int32) { o.link(x.elems, elems, noFilter) })
	}
}

// siteArray returns the ID of the array that the call at pc in caller creates
// (toArray's), whose elements are what node elems holds.
func (o *oracle) siteArray(caller *hierarchy.Method, pc, elems int32) int32 {
	id := o.arrayID(caller, pc)
	o.link(elems, o.extra[id-o.nc].elems, noFilter)
	return id
}

// fnResults links what the functions node fn holds return to node to: the return
// of a lambda whose body the program has (lambdaBody), else any object.
func (o *oracle) fnResults(fn, to int32) {
	o.ask(sub{n: fn, t: o.h.Object(), every: true,
		onTop: func() { o.link(o.any, to, noFilter) },
		objs: func(y int32) {
			if body := o.lambdaBody(y); body != nil {
				o.link(o.returnNode(body), to, noFilter)
				return
			}
			o.link(o.any, to, noFilter) // a function whose results nobody follows
		}})
}

// lambdaBody returns the method whose return is what lambda y returns: its
// implementation when that is the one method the lambda calls (a static or
// private method, as javac compiles a lambda's body) and returns an object. It
// returns nil for anything else: an object that is not a lambda, a constructor
// reference, a method reference that dispatches, a primitive result (boxed by
// the JDK).
func (o *oracle) lambdaBody(y int32) *hierarchy.Method {
	if y < o.nc {
		return nil
	}
	x := o.extra[y-o.nc]
	if x.kind != objLambda {
		return nil
	}
	m, kind := o.lambdaImpl(x)
	if m == nil {
		return nil
	}
	switch kind {
	case classfile.RefInvokeStatic:
	case classfile.RefInvokeVirtual, classfile.RefInvokeInterface, classfile.RefInvokeSpecial:
		if !m.IsPrivate() {
			return nil
		}
	default:
		return nil
	}
	if r := returnDesc(m.Desc); r == "" || r[0] != 'L' && r[0] != '[' {
		return nil
	}
	return m
}

// copyInto adds the contents of the containers and views node n holds to those
// of container or view r; other objects' contents nobody follows, so r escapes.
func (o *oracle) copyInto(n, r int32) {
	x := o.extra[r-o.nc]
	why := topCause{kind: topCopied, from: n, obj: r}
	o.ask(sub{n: n, t: o.h.Object(), every: true,
		onTop: func() { o.escapedFor(r, why) },
		objs: func(y int32) {
			if y < o.nc || o.extra[y-o.nc].kind != objContainer && o.extra[y-o.nc].kind != objView {
				o.escapedFor(r, why) // contents nobody follows: any object
				return
			}
			from := o.extra[y-o.nc]
			o.link(from.elems, x.elems, noFilter)
			if from.keys != 0 && x.keys != 0 {
				o.link(from.keys, x.keys, noFilter)
			}
		}})
}

// viewsOf puts into def the views that call mR returns on container or view r:
// of the classes its summary says it creates (ArrayList.iterator's Itr), else of
// an open class (view).
func (o *oracle) viewsOf(r int32, x extraObj, eff effect, mR *hierarchy.Method, def int32) {
	part := elementsPart
	switch {
	case eff.keys:
		part = keysPart
	case eff.entries:
		part = entriesPart
	case eff.whole:
		// A wrapper (unmodifiableList): of the classes its summary tells, or
		// the container itself when it may return its argument.
		if s := o.summary(mR); s != nil && (len(s.fresh) > 0 || len(s.params) > 0) {
			for _, p := range s.params {
				if p == 0 {
					o.add(def, r)
				}
			}
			for _, f := range s.fresh {
				o.add(def, o.view(r, o.h.Classes()[f], wholePart))
			}
			return
		}
		o.add(def, o.view(r, nil, wholePart))
		return
	}
	if (part == keysPart || part == entriesPart) && x.keys == 0 {
		// Not a map's (a view's keySet): nothing the model follows.
		o.escaped(r, unmodelled)
		o.link(o.any, def, noFilter)
		return
	}
	var fresh []int32
	if x.cls != nil && part != entriesPart {
		// A container's, or a view's of a known class (a factory's
		// ImmutableCollections.ListN): what its method creates.
		if sel := o.h.Select(x.cls, mR); sel != nil {
			if s := o.summary(sel); s != nil && len(s.params) == 0 {
				fresh = s.fresh
			}
		}
	}
	if len(fresh) == 0 {
		o.add(def, o.view(r, nil, part))
		return
	}
	for _, f := range fresh {
		o.add(def, o.view(r, o.h.Classes()[f], part))
	}
}

// arraysClass and asListSig name Arrays.asList: a list backed by the array it
// is given (asListCall).
const (
	arraysClass = "java/util/Arrays"
	asListSig   = "asList([Ljava/lang/Object;)Ljava/util/List;"
)

// asListCall links a call of Arrays.asList (whose method is mR): its result def
// is a list at the call whose elements are the array's, both ways, as a write
// through the list (set, sort) writes the array.
func (o *oracle) asListCall(caller *hierarchy.Method, c *facts.Call, mR *hierarchy.Method, def int32) {
	if def < 0 {
		return
	}
	id := o.siteView(caller, c.PC, o.freshClass(mR), false)
	list := o.extra[id-o.nc].elems
	o.arrays(o.operand(caller, c.PC, 0), func(elems int32) {
		o.link(elems, list, noFilter)
		o.link(list, elems, noFilter)
	})
	o.add(def, id)
}

// collectorsClass holds the factories of the collectors the model follows
// (collectorOf): a stream's collect with one of them makes a new list or set.
const collectorsClass = "java/util/stream/Collectors"

// collectorOf reports whether Collectors' static method name desc makes a
// collector that gathers a stream's elements into a new collection.
func collectorOf(name, desc string) bool {
	switch name + desc {
	case "toList()Ljava/util/stream/Collector;", "toSet()Ljava/util/stream/Collector;",
		"toUnmodifiableList()Ljava/util/stream/Collector;", "toUnmodifiableSet()Ljava/util/stream/Collector;":
		return true
	}
	return false
}

// collectorCall links a call of a collectorOf factory: its result is a collector
// object of the model's (siteView, marked collects), which nothing else reads.
func (o *oracle) collectorCall(caller *hierarchy.Method, c *facts.Call, def int32) {
	if def < 0 {
		return
	}
	id := o.siteView(caller, c.PC, nil, false)
	o.extra[id-o.nc].collects = true
	o.add(def, id)
}

// collectInto links a stream's collect on view r with the collectors node n
// holds: with a collector of the model's, the result def is a new collection at
// the call holding r's elements; with any other the stream escapes and the result
// is any object.
func (o *oracle) collectInto(n, r int32, caller *hierarchy.Method, pc, def int32) {
	x := o.extra[r-o.nc]
	o.ask(sub{n: n, t: o.h.Object(), every: true,
		onTop: func() {
			o.escaped(r, unmodelled)
			o.link(o.any, def, noFilter)
		},
		objs: func(y int32) {
			if y >= o.nc && o.extra[y-o.nc].collects {
				v := o.siteView(caller, pc, nil, false)
				o.link(x.elems, o.extra[v-o.nc].elems, noFilter)
				o.add(def, v)
				return
			}
			o.escaped(r, unmodelled)
			o.link(o.any, def, noFilter)
		}})
}

// escapeUnlessCollector lets r escape unless node n holds collectors of the
// model's only (a collect whose result nobody reads).
func (o *oracle) escapeUnlessCollector(n, r int32) {
	o.ask(sub{n: n, t: o.h.Object(), every: true,
		onTop: func() { o.escaped(r, unmodelled) },
		objs: func(y int32) {
			if y < o.nc || !o.extra[y-o.nc].collects {
				o.escaped(r, unmodelled)
			}
		}})
}

// factory is what a static factory of an unmodifiable list, set or map (List.of,
// Set.of, Map.of, and their copyOf) does with its arguments. Its result is a
// container of the program's, created at the call: of the class the factory's
// code tells (returns.go: List.of(a, b) is a List12), else of an open class
// (view), as the factories pick among several by the number of elements.
type factory struct {
	array bool // of(E...): the one argument is an array of the elements
	pairs bool // Map.of: the arguments are keys and values in turn
	copy  bool // copyOf: the one argument's contents are copied
}

// factoryOf returns the factory that the static method class.name desc is.
func factoryOf(class, name, desc string) (factory, bool) {
	if class == optionalClass {
		// Optional.of and ofNullable: an Optional holding the argument (open:
		// ofNullable's may be the empty one).
		return factory{}, (name == "of" || name == "ofNullable") && desc == "(Ljava/lang/Object;)Ljava/util/Optional;"
	}
	var elem, whole string
	switch class {
	case "java/util/List", "java/util/Set":
		elem, whole = "Ljava/lang/Object;", "Ljava/util/Collection;"
	case "java/util/Map":
		elem, whole = "Ljava/lang/Object;", "Ljava/util/Map;"
	default:
		return factory{}, false
	}
	params, ret, ok := strings.Cut(strings.TrimPrefix(desc, "("), ")")
	if !ok || ret != "L"+class+";" {
		return factory{}, false
	}
	switch name {
	case "copyOf":
		return factory{copy: true}, params == whole
	case "of":
		if params == "[Ljava/lang/Object;" && class != "java/util/Map" {
			return factory{array: true}, true
		}
		if len(params)%len(elem) != 0 || strings.ReplaceAll(params, elem, "") != "" {
			return factory{}, false
		}
		return factory{pairs: class == "java/util/Map"}, true
	}
	return factory{}, false
}

// factoryCall links a call c of factory fac (whose method is mR) in caller: its
// result def is the container the call creates, whose contents are what the
// arguments give.
func (o *oracle) factoryCall(caller *hierarchy.Method, c *facts.Call, mR *hierarchy.Method, fac factory, def int32) {
	if def < 0 {
		return // the result is not used: nothing can read the contents
	}
	classes := o.factoryClasses(mR, c.Ref.Class)
	var cls *hierarchy.Class
	if len(classes) == 1 {
		cls = classes[0]
	}
	id := o.siteView(caller, c.PC, cls, c.Ref.Class == "java/util/Map")
	x := o.extra[id-o.nc]
	operand := func(n int32) int32 { return o.operand(caller, c.PC, n) }
	switch {
	case fac.copy:
		// (copyOf may return its argument itself, an unmodifiable one: the copy
		// has its contents, and an open class reaches its class's methods.)
		o.copyInto(operand(0), id)
	case fac.array:
		o.arrays(operand(0), func(elems int32) { o.link(elems, x.elems, noFilter) })
	default:
		eachRefOperand(c, func(n int32) {
			if fac.pairs && n%2 == 0 {
				o.link(operand(n), x.keys, noFilter)
			} else {
				o.link(operand(n), x.elems, noFilter)
			}
		})
	}
	if len(classes) < 2 {
		o.add(def, id)
		return
	}
	// One view per class, sharing the contents, as for a container's iterators.
	for _, c := range classes {
		o.add(def, o.view(id, c, wholePart))
	}
}

// immutables are the JDK's unmodifiable collections (java.util.ImmutableCollections,
// since JDK 9) by the interface whose factories make them: List.of and
// List.copyOf return a List12 or a ListN (copyOf its argument itself when it is
// one, or the empty ListN a static field holds, which the summaries of returns.go
// cannot tell), Set's and Map's likewise. Each is the abstract class of them all,
// then the ones the factories make (JDK 17's; an image without those classes gets
// every concrete subclass of the abstract one).
var immutables = map[string][]string{
	"java/util/List": {"java/util/ImmutableCollections$AbstractImmutableList", "java/util/ImmutableCollections$List12", "java/util/ImmutableCollections$ListN"},
	"java/util/Set":  {"java/util/ImmutableCollections$AbstractImmutableSet", "java/util/ImmutableCollections$Set12", "java/util/ImmutableCollections$SetN"},
	"java/util/Map":  {"java/util/ImmutableCollections$AbstractImmutableMap", "java/util/ImmutableCollections$Map1", "java/util/ImmutableCollections$MapN"},
}

// factoryClasses returns the classes of the objects factory m of class owner may
// return: the one its code creates on every path (freshClass), else the JDK's
// unmodifiable collections of owner's kind (immutables); nil when neither is
// known (an open class).
func (o *oracle) factoryClasses(m *hierarchy.Method, owner string) []*hierarchy.Class {
	if c := o.freshClass(m); c != nil {
		return []*hierarchy.Class{c}
	}
	names := immutables[owner]
	if len(names) == 0 {
		return nil
	}
	base := o.h.Class(names[0])
	if base == nil || base.Phantom {
		return nil
	}
	var out []*hierarchy.Class
	for _, n := range names[1:] {
		if c := o.h.Class(n); c != nil && !c.Phantom && algo.Concrete(c) && o.h.IsSubclass(c, base) {
			out = append(out, c)
		}
	}
	if len(out) == len(names)-1 {
		return out
	}
	out = out[:0]
	o.h.AllSubtypes(base, func(c *hierarchy.Class) bool {
		if algo.Concrete(c) {
			out = append(out, c)
		}
		return true
	})
	return out
}

// freshClass returns the one class of the objects that summarised method m
// creates and returns on every path (returns.go), or nil.
func (o *oracle) freshClass(m *hierarchy.Method) *hierarchy.Class {
	if s := o.summary(m); s != nil && len(s.params) == 0 && len(s.fresh) == 1 {
		return o.h.Classes()[s.fresh[0]]
	}
	return nil
}

// siteView returns the ID of the container that the call at pc in caller creates
// (a factory's, a stream's map): a view of class cls (nil: an open class) with
// contents of its own, and keys when it is a map's.
func (o *oracle) siteView(caller *hierarchy.Method, pc int32, cls *hierarchy.Class, keys bool) int32 {
	if id, ok := o.extraIDs[siteKey{caller.ID, pc}]; ok {
		return id
	}
	x := extraObj{kind: objView, m: caller, pc: pc, cls: cls, elems: o.newNode()}
	o.link(x.elems, o.sink, noFilter)
	if keys {
		x.keys = o.newNode()
		o.link(x.keys, o.sink, noFilter)
	}
	return o.newExtra(x)
}
