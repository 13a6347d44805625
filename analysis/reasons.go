package analysis

import "github.com/jcg-lsp/jcg-lsp/analysis/callgraph"

// The reasons of the standard resolvers' edges.
var (
	staticReason    = callgraph.Reason{Kind: callgraph.KindStatic, Resolver: "invoke"}
	specialReason   = callgraph.Reason{Kind: callgraph.KindSpecial, Resolver: "invoke"}
	virtualReason   = callgraph.Reason{Kind: callgraph.KindVirtual, Resolver: "invoke"}
	interfaceReason = callgraph.Reason{Kind: callgraph.KindInterface, Resolver: "invoke"}
	initReason      = callgraph.Reason{Kind: callgraph.KindInit, Resolver: "clinit", Evidence: "class initialisation (JVMS 5.5)"}
	lambdaReason    = callgraph.Reason{Kind: callgraph.KindLambda, Resolver: "lambda", Evidence: "lambda or method reference (LambdaMetafactory)"}
	bootstrapReason = callgraph.Reason{Kind: callgraph.KindIndy, Resolver: "invokedynamic", Evidence: "bootstrap method"}
	nativeReason    = callgraph.Reason{Kind: callgraph.KindNative, Resolver: "native", Evidence: "native code may call back"}
	finalizerReason = callgraph.Reason{Kind: callgraph.KindFinalizer, Resolver: "finalizer", Evidence: "the JVM finalizes allocated objects"}
)
