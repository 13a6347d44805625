package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// threadResolver: Thread.start makes the JVM call run() of the started thread on a
// new thread, through native code, and end the thread with Thread.exit.
type threadResolver struct{}

var threadReason = callgraph.Reason{Kind: callgraph.KindThread, Resolver: "thread", Evidence: "Thread.start runs run() on a new thread"}

func (threadResolver) Name() string   { return "thread" }
func (threadResolver) APIs() []string { return []string{"java/lang/Thread.start"} }

func (threadResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	thread := s.h.Class("java/lang/Thread")
	recv := s.h.Class(c.Ref.Class)
	if thread == nil || recv == nil {
		return
	}
	if run := thread.Method("run", "()V"); run != nil {
		s.dispatch(at, algo.OperandOf(at.caller, at.pc, 0, recv), run, threadReason)
	}
	// The same thread then ends in the JVM's calls: Thread.exit after run returns,
	// and first dispatchUncaughtException when run threw.
	for _, m := range []*hierarchy.Method{thread.Method("exit", "()V"), thread.Method("dispatchUncaughtException", "(Ljava/lang/Throwable;)V")} {
		if m != nil {
			s.edge(at, m, threadEndReason)
		}
	}
}

var threadEndReason = callgraph.Reason{Kind: callgraph.KindThread, Resolver: "thread",
	Evidence: "when run returns (or throws), the JVM calls Thread.exit (and first dispatchUncaughtException) on the thread (hotspot JavaThread::exit)"}

// privilegedResolver: AccessController.doPrivileged runs the action's run().
type privilegedResolver struct{}

const accessController = "java/security/AccessController"

var privilegedReason = callgraph.Reason{Kind: callgraph.KindPrivileged, Resolver: "privileged", Evidence: "AccessController.doPrivileged runs the action"}

func (privilegedResolver) Name() string { return "privileged" }
func (privilegedResolver) APIs() []string {
	return []string{accessController + ".doPrivileged", accessController + ".doPrivilegedWithCombiner"}
}

func (privilegedResolver) Resolve(s *solver, at site, _ *facts.Call, rm *hierarchy.Method) {
	action := firstParamClass(rm.Desc)
	if !strings.HasPrefix(action, "java/security/Privileged") {
		return
	}
	ac := s.h.Class(action)
	if ac == nil {
		return
	}
	if run := ac.Method("run", "()Ljava/lang/Object;"); run != nil {
		s.dispatch(at, algo.OperandOf(at.caller, at.pc, 0, ac), run, privilegedReason)
	}
}
