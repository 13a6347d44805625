// Package incremental hosts the analysis of a workspace and keeps it current while
// its class files, jars and specification files change on disk: it is the one owner
// of snapshots (gopls' cache, rust-analyzer's AnalysisHost). The language server
// holds one Host and reads its snapshots; it never builds or changes them.
//
//   - Project (project.go): one unit of analysis, a class path with its source roots
//     and specification file, configured or discovered from the build output of the
//     usual build tools (DiscoverProjects).
//   - Host (host.go): Build indexes each project, reusing the previous index's
//     classes whose bytes did not change (facts are cached by content hash), analyses
//     it and publishes one immutable Snapshot per project, replacing the current
//     ones as a whole. When classes changed (their bodies, members or headers; classes
//     added or removed) or the specification file did, the graph is updated in place
//     (analysis.Analyzer.Update, which maps the IDs when the hierarchy differs) instead
//     of analysed anew, unless Update cannot prove the result equal. Under an algorithm that
//     cannot update in place (TFA, XTA, RTA), the world keeps the CHA graph of the
//     same level beside (its companion, computed in the background as soon as a
//     graph is published); an edit updates it in place, waiting for it if need be,
//     and Current and Acquire return it (Request.Interim) until the build publishes.
//     Builds run one at a time; a cancelled one publishes nothing.
//   - Snapshots over the same index share a reference-counted world (world.go): the
//     index, its analyzer, graphs by analysis settings and specification (a level
//     switch computes once, a switch back reuses) and what features derive from the
//     index (Snapshot.Derived). Closing an index unmaps the JDK image, so it is closed
//     only when the last snapshot holding it is released.
//   - Changes (changes.go): Host.Changed tells whether a change set changes anything
//     for the current snapshots: a class file's bytes, a jar, a specification file's
//     meaning (SpecFile.Meaning: comments and spacing mean nothing). A Watcher
//     (watcher.go) turns fsnotify events into debounced change sets.
//   - Disk caches: GraphCache keeps analysed graphs across restarts (keyed by every
//     class's hash and the analysis settings); a graph loaded from it gets the trace
//     an update in place starts from by a run in the background. DiskCache keeps
//     extracted facts by class hash.
//
// Use (the server's loop, server/rebuild.go and server/watch.go):
//
//	h := incremental.NewHost(ctx, incremental.HostOptions{Graphs: gc, Logger: log})
//	projects := incremental.DiscoverProjects(folders, &discovery)
//	snaps, err := h.Build(ctx, incremental.Request{Reason: incremental.ReasonInitial, Options: opts, Projects: projects})
//	w, err := incremental.Watch(projects[0].Config(), specFiles, apply, incremental.WatchOptions{})
//	// apply: if h.Changed(cs, lastSpec) says something changed, Build again
//	snap, release := h.Acquire(match) // in a request handler
//	defer release()
//
// Invariants: readers never see a half-built snapshot; a snapshot never changes after
// it is published (graphs of other settings are computed on request, once); an
// update in place equals a new analysis (TestIncrementalEqualsScratch drives hosts as
// the server does); a rewrite with identical bytes is no change.
package incremental
