package values

import (
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// frame is a statically bound call whose callee's result is being evaluated for
// that call alone. A parameter of the callee reached from its returns, within the
// same invocation, is the call's argument: so a helper such as
// `static Class<?> load(String n)` returns, at each call, the classes its argument
// names, whatever the helper's visibility. The binding holds only along the
// callee's own def-use chains: values that belong to no single invocation (a
// method's other callers, the stores into a field, another site's result) are
// evaluated outside any frame.
type frame struct {
	caller *method
	call   *facts.Call
	callee *method
	up     *frame
}

// withFrame evaluates f with fr as the current frame (nil: outside any frame).
func withFrame[T any](a *Analyzer, fr *frame, f func() T) T {
	saved := a.frame
	a.frame = fr
	defer func() { a.frame = saved }()
	return f()
}

// calleeReturns evaluates, for every callee of the call c in mi, the value of each of
// its returns with eval, in a frame that binds the callee's parameters to the call's
// arguments, and hands each value to add. It stops at the first callee without code
// to follow and returns it.
func calleeReturns[T any](a *Analyzer, mi *method, c *facts.Call, callees []*hierarchy.Method,
	eval func(cmi *method, defs []facts.Def) T, add func(T)) (noCode *hierarchy.Method) {
	for _, callee := range callees {
		cmi := a.methodInfo(callee)
		if cmi == nil {
			return callee
		}
		fr := &frame{caller: mi, call: c, callee: cmi, up: a.frame}
		for _, r := range cmi.returns() {
			add(withFrame(a, fr, func() T { return eval(cmi, cmi.operand(int32(r), 0)) }))
		}
	}
	return nil
}

// boundArg returns the current frame and the definitions of the argument that
// parameter n of mi receives there, when mi is the frame's callee.
func (a *Analyzer) boundArg(mi *method, n int) (*frame, []facts.Def, bool) {
	fr := a.frame
	if fr == nil || fr.callee != mi {
		return nil, nil, false
	}
	ops := fr.caller.flow.Operands(int(fr.call.PC))
	if n < 0 || n >= len(ops) {
		return nil, nil, false
	}
	return fr, ops[n], true
}
