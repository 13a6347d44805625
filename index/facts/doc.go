// Package facts extracts, once per class, the per-method facts that the call-graph
// algorithms and the dynamic-feature resolvers read instead of bytecode, and computes
// on demand the intraprocedural def-use and post-dominance information that cast and
// string resolution need (assumption levels 3 and 4).
//
// # Facts
//
// [Extract] walks every method body of a parsed class once and records its call sites,
// allocation sites, ldc class and string constants, checkcast/instanceof targets and
// field accesses, each with its bytecode offset and source line. Facts are plain Go
// values with every constant-pool reference already resolved, so they stay valid after
// the class bytes are released and can be cached by class hash: a changed class only
// re-extracts its own facts. A constant used by many instructions is decoded once per
// class, so its strings are shared by all the facts that mention it.
//
// # Flow
//
// [Analyze] is the expensive part and runs only for methods that contain dynamic
// sites. It is an abstract interpretation of the operand stack and the local variables
// over the method's control-flow graph whose abstract values are sets of reaching
// definitions ([Def]): the parameter, instruction or exception handler that produced a
// value. Loads, stores and stack shuffles (dup*, swap) only move values, so a cast's
// operand is traced back through locals to, say, the newInstance call that created it.
// The lattice is finite (sets of the method's own definitions), so the fixed point is
// reached without widening.
//
// The stack and the locals are modelled in JVM words: a long or double takes two words,
// the second holding a marker, so dup2, dup2_x1, dup2_x2 and pop2 behave exactly as the
// JVMS defines them for either shape, and queries report one operand per value.
//
// Exception edges follow the JVMS: every instruction inside a protected range may
// transfer control to the handler with the locals it found and a stack holding only the
// caught exception. To keep that exact, every protected instruction is a basic block of
// its own, so a handler's entry state is the union of the entry states of the blocks it
// protects.
//
// [Flow.PostDominates] answers post-dominance on the same graph, exception edges
// included, with returns and athrow as the method's exits (an athrow covered by a
// catch-all handler only goes to its handlers). Exception edges matter for level 3:
// when a newInstance inside a try can throw to a handler that returns, the cast after
// it does not post-dominate it, and resolving the site by the cast would be unsound.
// False is always the conservative answer.
//
// Subroutines (jsr/ret, class files before version 50) are handled soundly but
// coarsely: every ret may return to every instruction that follows a jsr.
//
// # Bad input
//
// Malformed bytecode yields an *[Error] naming the method and wrapping a
// *bytecode.Error with the offending pc; neither Extract nor Analyze panics, and Analyze
// bounds its work so that hostile input cannot make it run for long.
package facts
