// Package classpath reads compiled Java classes from a class path: class
// directories, jars (multi-release aware), .jmod files, a JDK 8 rt.jar and the
// JDK 9+ runtime image (lib/modules, the "jimage" format).
//
// The package only finds and loads class bytes; it does not parse them. Its
// result, a [ClassPath], is the input of the class-file parser and of the
// hierarchy index built on top of it.
//
// # Resolution order
//
// Classes are searched the way the JVM's parent-first class loaders search
// them: the JDK comes first (a class path cannot replace java.lang.String),
// then the configured sources in class-path order. When two containers define
// the same class the first one wins, the loser is kept in
// [ClassPath.Shadowed], and one [Warning] per pair of containers says so.
//
// # Names
//
// A class is named after its entry, in internal form: "p/q/C.class" in a
// directory or jar is p/q/C, "/java.base/java/lang/Object.class" in the
// image is java/lang/Object (module java.base), "classes/p/C.class" in a
// jmod is p/C. module-info.class entries are module descriptors, not
// classes, and are skipped; package-info.class entries are kept.
//
// # Nested archives
//
// Applications ship as archives of archives, which a jar reader must open to
// see their classes: a Spring Boot executable jar (BOOT-INF/classes/ and
// BOOT-INF/lib/*.jar), a WAR (WEB-INF/classes/, WEB-INF/lib/*.jar), an EAR
// (modules at the root, libraries in lib/) or a plain jar holding jars.
// Their classes are part of the class path: those of the class directory
// and of EAR modules with the archive's origin, those of libraries (and a
// Spring Boot launcher at the root) as [Library] when the archive is the
// application's. A nested archive's classes name it in Container, in the
// form of jar URLs ("app.war!/WEB-INF/lib/dep.jar"), and [Class.Location]
// adds the entry. [ClassPath.Nested] lists the nested archives read.
// Stored nested archives are read in place; compressed ones are inflated
// into memory, up to [MaxNestedJarSize] and within the zip limits below.
// Nesting depth, the number of nested archives and of their entries, and
// the bytes that one file and everything in it may produce (100 times its
// size) are bounded; what is over a bound is a warning naming the nested
// archive.
//
// # Bad input
//
// A class path routinely contains half-written jars (a build in progress),
// stale entries and, in an editor, arbitrary files. Problems with one
// container or one entry become [Warning] values naming the container, the
// entry and the byte offset; everything else still loads. [Open] fails only
// when nothing sensible can be returned: the JDK is required and cannot be
// found, or the context is cancelled. Counts and sizes read from files are
// checked against the bytes actually present before anything is allocated,
// and zip entries are read through limits so that a lying header cannot make
// the reader inflate more than [MaxEntrySize] bytes.
//
// # Memory
//
// The JDK image is memory-mapped read-only and the Data of its classes points
// straight into the mapping: no copy of the ~130 MB of JDK class bytes is
// made. Such Data must not be used after [ClassPath.Close] (the access would
// fault), and must never be modified.
package classpath
