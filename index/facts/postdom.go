package facts

// postDominators computes the immediate post-dominator of every block with the
// algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001)
// run on the reversed graph, rooted at a virtual exit node that every return and every
// uncaught athrow reaches.
//
// Blocks that cannot reach an exit (infinite loops, or code ending in an unhandled
// loop of handlers) would have no post-dominator at all. For them the highest-pc block
// of each such region gets a virtual edge to the exit, as LLVM's post-dominator tree
// does with its "reverse-unreachable" roots: a loop's back edge usually sits at its
// highest pc, so the loop body still post-dominates its header's successors.
func (fl *Flow) postDominators() {
	nb := len(fl.blocks)
	exit := int32(nb)
	// Forward predecessors are the successors of the reversed graph.
	predOff := make([]int32, nb+2)
	forEachSucc := func(b int, fn func(s int32)) {
		bl := &fl.blocks[b]
		for _, s := range fl.succs[bl.succ[0]:bl.succ[1]] {
			fn(s)
		}
		for _, s := range fl.excs[bl.exc[0]:bl.exc[1]] {
			fn(s)
		}
	}
	for b := range nb {
		forEachSucc(b, func(s int32) { predOff[s+1]++ })
	}
	for i := 1; i < len(predOff); i++ {
		predOff[i] += predOff[i-1]
	}
	preds := make([]int32, predOff[nb+1])
	fill := append([]int32(nil), predOff[:nb+1]...)
	for b := range nb {
		forEachSucc(b, func(s int32) {
			preds[fill[s]] = int32(b)
			fill[s]++
		})
	}

	// Postorder of the reversed graph, iteratively (methods may have thousands of
	// blocks in a chain). The exit is numbered last, after all its subtrees.
	po := make([]int32, nb+1) // postorder number + 1; 0 = unvisited
	order := make([]int32, 0, nb+1)
	virt := make([]bool, nb)
	type item struct{ node, next int32 }
	var stack []item
	dfs := func(root int32) {
		po[root] = -1 // on the stack
		stack = append(stack[:0], item{root, predOff[root]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < predOff[top.node+1] {
				p := preds[top.next]
				top.next++
				if po[p] == 0 {
					po[p] = -1
					stack = append(stack, item{p, predOff[p]})
				}
				continue
			}
			order = append(order, top.node)
			po[top.node] = int32(len(order))
			stack = stack[:len(stack)-1]
		}
	}
	po[exit] = -1
	for _, b := range preds[predOff[exit]:predOff[exit+1]] {
		if po[b] == 0 {
			dfs(b)
		}
	}
	for b := nb - 1; b >= 0; b-- {
		if po[b] == 0 {
			virt[b] = true
			dfs(int32(b))
		}
	}
	order = append(order, exit)
	po[exit] = int32(len(order))

	ipdom := make([]int32, nb+1)
	for i := range ipdom {
		ipdom[i] = -1
	}
	ipdom[exit] = exit
	intersect := func(a, b int32) int32 {
		for a != b {
			for po[a] < po[b] {
				a = ipdom[a]
			}
			for po[b] < po[a] {
				b = ipdom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		// Reverse postorder, skipping the exit.
		for k := len(order) - 2; k >= 0; k-- {
			b := order[k]
			nd := int32(-1)
			join := func(s int32) {
				if ipdom[s] < 0 {
					return
				}
				if nd < 0 {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			forEachSucc(int(b), join)
			if virt[b] {
				join(exit)
			}
			if nd >= 0 && ipdom[b] != nd {
				ipdom[b] = nd
				changed = true
			}
		}
	}
	fl.ipdom = ipdom
}

// PostDominates reports whether the instruction at pc a post-dominates the one at pc
// b: every path from b to a method exit (a return, or an athrow no handler catches)
// passes through a, exception edges included. Every instruction post-dominates itself.
// It reports false when either pc is not an instruction.
func (fl *Flow) PostDominates(a, b int) bool {
	ia, ok1 := fl.instrAt(a)
	ib, ok2 := fl.instrAt(b)
	if !ok1 || !ok2 {
		return false
	}
	ba, bb := fl.blockOf[ia], fl.blockOf[ib]
	if ba != bb {
		return fl.blockPostDominates(ba, bb)
	}
	if ia >= ib {
		return true // blocks have no internal exits: b's block runs on to a
	}
	// a precedes b in the block: every path from b must leave the block and come back.
	bl := &fl.blocks[bb]
	n := 0
	for _, s := range fl.succs[bl.succ[0]:bl.succ[1]] {
		if !fl.blockPostDominates(ba, s) {
			return false
		}
		n++
	}
	for _, s := range fl.excs[bl.exc[0]:bl.exc[1]] {
		if !fl.blockPostDominates(ba, s) {
			return false
		}
		n++
	}
	return n > 0
}

// blockPostDominates reports whether block a post-dominates block b (reflexively).
func (fl *Flow) blockPostDominates(a, b int32) bool {
	exit := int32(len(fl.blocks))
	for b != a {
		if b == exit || b < 0 {
			return false
		}
		b = fl.ipdom[b]
	}
	return true
}

func (fl *Flow) instrAt(pc int) (int32, bool) {
	if pc < 0 || pc >= len(fl.pcIdx)-1 || fl.pcIdx[pc] < 0 {
		return 0, false
	}
	return fl.pcIdx[pc], true
}
