package facts

// OnlyAfter reports whether every path to the instruction at pc, from the method's
// entry and from each instruction at restarts, takes the edge from the branch at
// from (the last instruction of its block) to the instruction at to (the first of a
// successor block): pc is unreachable from them once that edge is removed. A guard
// on a value holds at pc when the restarts are the value's definitions: no path
// redefines it after the guard. Exception edges are paths like any other. It reports
// false when a pc is not an instruction, from does not end its block, to does not
// start a successor of it, or from's block has no other normal successor (then the
// edge is not a choice).
func (fl *Flow) OnlyAfter(from, to, pc int, restarts ...int) bool {
	ifr, ok1 := fl.instrAt(from)
	ito, ok2 := fl.instrAt(to)
	ipc, ok3 := fl.instrAt(pc)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	bf, bt, bu := fl.blockOf[ifr], fl.blockOf[ito], fl.blockOf[ipc]
	bl := &fl.blocks[bf]
	if bl.end-1 != ifr || fl.blocks[bt].first != ito {
		return false
	}
	succs := fl.succs[bl.succ[0]:bl.succ[1]]
	has, other := false, false
	for _, s := range succs {
		has = has || s == bt
		other = other || s != bt
	}
	if !has || !other {
		return false
	}
	nb := int32(len(fl.blocks))
	seen := make([]bool, nb)
	stack := []int32{0}
	seen[0] = true
	push := func(s int32) {
		if s >= 0 && s < nb && !seen[s] {
			seen[s] = true
			stack = append(stack, s)
		}
	}
	for _, r := range restarts {
		ir, ok := fl.instrAt(r)
		if !ok {
			return false
		}
		// From r on: the rest of its block runs first, so pc later in that block is
		// reached (pc earlier in it only through the successors, conservatively too).
		if fl.blockOf[ir] == bu {
			return false
		}
		push(fl.blockOf[ir])
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == bu {
			return false
		}
		cur := &fl.blocks[b]
		for _, s := range fl.succs[cur.succ[0]:cur.succ[1]] {
			if b != bf || s != bt {
				push(s)
			}
		}
		for _, s := range fl.excs[cur.exc[0]:cur.exc[1]] {
			push(s)
		}
	}
	return true
}
