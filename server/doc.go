// Package server is what the editor sees: a language server over go.lsp.dev/protocol
// and go.lsp.dev/jsonrpc2 (the v1.0.1 generation) that shows jcg-lsp's call graphs in
// Java source files and in read-only listings of classes without source.
//
// # Layers
//
//   - conn.go, codec.go: the connection. The handler chain is our own, because
//     protocol.NewServer's runs every message asynchronously (didChange and didSave
//     would arrive out of order), closes the connection when a notification handler
//     returns an error and ignores its fallback handler (our jcg/ methods):
//     notifications run in order on the read loop and never return errors; requests
//     are decoded on the read loop, then released with jsonrpc2.Async and run
//     concurrently; $/cancelRequest cancels a request's context; malformed frames get
//     error replies (tolerantStream). Calls to the client are made only from
//     goroutines or released requests.
//   - lifecycle.go, settings.go: initialize and the layered settings
//     (initializationOptions < workspace/configuration < command overrides).
//   - rebuild.go: Rebuild is the single entry point for (re)analysis. A build runs in
//     the background with work-done progress and cancels the one before it; it
//     discovers the projects (incremental.DiscoverProjects) and has the server's
//     incremental.Host build and publish their snapshots, then publishes the
//     diagnostics that changed and jcg/status. The host owns the snapshots (indexes,
//     analyzers, graphs by settings, updates in place, disk caches); the server only
//     reads them (snapshot.go), and keeps what it derives from an index (source
//     mapping, class listings) with the index (Snapshot.Derived).
//   - watch.go: incremental.Watcher watches the class path and the specification
//     files; its debounced change sets become Rebuild(incremental.ReasonClassFiles)
//     (or incremental.ReasonSpec) when the host says they change something
//     (incremental.Host.Changed: other class bytes, a specification meaning that no
//     build or didSave took yet); half-written class files defer them.
//   - hover.go, callhierarchy.go, diagnostics.go, codeaction.go, command.go,
//     textsync.go: the handlers. Each takes a snapshot, asks package ide (the
//     features: what a position designates, hovers, call hierarchies, diagnostics,
//     quick fixes, listings), and converts its plain data to LSP's types
//     (convert.go; uris.go turns ide's documents into file: and jcg-class: URIs).
//     The server imports no index package.
//   - early.go, firstbuild.go: diagnostics published while the first analysis runs,
//     and requests that wait for the first snapshot, or for an edit's.
//
// # Invariants
//
// Requests during a rebuild for a configuration change or a command do not wait for
// it: they are answered from the latest snapshot. A request that arrives after the
// server has seen an edit (the watcher's class files, a saved specification file)
// waits for a snapshot that includes it: the edit's interim one (CHA's companion
// updated in place, whose diagnostics publishInterim publishes and which the host
// then returns to requests) or its final one (firstbuild.go awaitEdits: cancellable,
// bounded), so that no answer contradicts the edit's diagnostics. A request that
// arrives before its workspace's first snapshot waits for it (cancellable, bounded),
// and is never given an empty answer: an empty call hierarchy would say "no callers",
// which is false; when the wait ends without a snapshot, the answer is an error the
// client shows. A snapshot is never
// modified after it is published. Only this package imports go.lsp.dev/protocol. Nothing here writes to
// standard output except through the connection.
//
// # Extensions to LSP
//
//   - jcg/classContent {uri} -> {text}: the listing of a jcg-class: URI, for clients
//     (the VS Code extension's TextDocumentContentProvider) that open those items;
//   - jcg/status (notification to the client): a build ended, or an edit's interim
//     diagnostics are published; state ready, interim, failed or cancelled, with the level, a summary and what the specification file held;
//   - workspace/executeCommand: jcg.setLevel, jcg.statistics, jcg.exportCallGraph,
//     jcg.showClassPath, jcg.reanalyze, jcg.openSpecFile, jcg.showSpecification.
package server
