// Package hierarchy is the type hierarchy of a closed world of parsed class files,
// with the JVM's own rules for finding the method a call instruction runs and for
// deciding who may access what.
//
// The call-graph analysis asks two questions millions of times: "is S a subtype of T"
// and "which method does invokevirtual/invokeinterface run for receiver class S after
// resolving to method m". Both must follow the JVM specification exactly, because the
// call graph is only as sound as these answers, and both must be fast. So [New] does all
// the linking once, and a [Hierarchy] is immutable afterwards: any number of goroutines
// may query it without locks (the one index built on first use, by package, is
// built under a sync.Once).
//
// # What is implemented, and where it is specified
//
//   - Supertypes and subtypes, transitive, interfaces included ([Hierarchy.IsSubtype],
//     [Hierarchy.Supertypes], [Hierarchy.AllSubtypes]). A class's superclass chain is
//     stored as a display (Cohen 1991) and its superinterfaces as a sorted ID set, so a
//     subtype test is an index or a binary search.
//   - Method resolution, JVMS 5.4.3.3 (class references, including signature-polymorphic
//     methods of MethodHandle and VarHandle, JVMS 2.9.3) and 5.4.3.4 (interface
//     references, including public methods of Object), with maximally-specific
//     superinterface methods ([Hierarchy.ResolveMethod]).
//   - Field resolution, JVMS 5.4.3.2 ([Hierarchy.ResolveField]).
//   - Method selection for invokevirtual and invokeinterface, JVMS 5.4.6 with the
//     overriding relation of 5.4.5, including the transitive rule for package-private
//     methods ([Hierarchy.Select], and [Hierarchy.Selection] for why nothing is
//     selected); invokespecial, JVMS 6.5 ([Hierarchy.SpecialTarget]). Selection is a
//     walk up the receiver's superclasses in which a per-class Bloom filter of method
//     signatures skips the classes that do not declare the method; it allocates
//     nothing, so the analysis can ask it for every receiver instead of caching.
//   - Access control, JVMS 5.4.4 including nest mates ([Hierarchy.Accessible]), and the
//     source-level rules of assumption level 2 (Encap-Respect, see
//     docs/assumption-levels.md) ([Hierarchy.EncapsulationSafe],
//     [Hierarchy.EncapsulationSafeConstructor]).
//
// # Assumptions
//
// Class loaders are well behaved (assumption level 1): a class name denotes one class,
// so the JVM's run-time package (class loader, package name) is the package name.
// ACC_SUPER is treated as set in every class file, as the JVM has done since Java 8.
// Modules are not modelled: a public member of a non-exported package counts as
// public. Array types are not classes here; their members are those of
// java/lang/Object (JVMS 5.4.3.3 resolves methods of array types in Object).
//
// # Bad class paths
//
// Real class paths are incomplete and sometimes hostile, and one bad class must not
// stop the index. A supertype that is not on the class path becomes a phantom class
// ([Class.Phantom]) whose own superclass is taken to be java/lang/Object; lookups
// that pass through a phantom are best effort and report [ErrIncomplete] when they
// find nothing. A class that is defined twice keeps its first definition. A cycle of
// supertypes (which the JVM rejects with ClassCircularityError) is broken at the edge
// that closes it (a superclass edge is re-pointed to java/lang/Object, so every class
// still ends there) and its classes are marked [Class.Cyclic]. Supertypes of the wrong
// kind, duplicate classes and broken nesting attributes are repaired likewise, and
// hostile depths and widths cannot make memory quadratic. Every repair is a
// [Problem]; [New] itself never fails.
package hierarchy
