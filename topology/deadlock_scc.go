package topology

import "slices"

// dependencyCycles finds the strongly connected components of a directed graph (Tarjan) and
// returns each one that holds a cycle, with a shortest cycle through its smallest node.
// Nodes are sorted and adj lists sorted indexes, so the result is stable.
func dependencyCycles(nodes []PortRef, adj [][]int) []DependencyCycle {
	var out []DependencyCycle
	for _, comp := range tarjan(adj) {
		if len(comp) == 1 && !slices.Contains(adj[comp[0]], comp[0]) {
			continue
		}
		slices.Sort(comp)
		c := DependencyCycle{}
		for _, n := range comp {
			c.Queues = append(c.Queues, nodes[n])
		}
		for _, n := range shortestCycle(adj, comp) {
			c.Cycle = append(c.Cycle, nodes[n])
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(x, y DependencyCycle) int { return comparePorts(x.Queues[0], y.Queues[0]) })
	return out
}

// tarjan lists the strongly connected components of adj.
func tarjan(adj [][]int) [][]int {
	index := make([]int, len(adj))
	low := make([]int, len(adj))
	onStack := make([]bool, len(adj))
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var comps [][]int
	next := 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range adj[v] {
			switch {
			case index[w] < 0:
				visit(w)
				low[v] = min(low[v], low[w])
			case onStack[w]:
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var comp []int
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			comp = append(comp, w)
			if w == v {
				break
			}
		}
		comps = append(comps, comp)
	}
	for v := range adj {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comps
}

// shortestCycle is a shortest cycle through comp[0] (the component's smallest node) that
// stays inside the sorted component comp: a BFS from it back to itself.
func shortestCycle(adj [][]int, comp []int) []int {
	start := comp[0]
	parent := map[int]int{}
	queue := []int{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range adj[v] {
			if _, in := slices.BinarySearch(comp, w); !in {
				continue
			}
			if w == start {
				cycle := []int{v}
				for v != start {
					v = parent[v]
					cycle = append(cycle, v)
				}
				slices.Reverse(cycle)
				return cycle
			}
			if _, seen := parent[w]; !seen {
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	return []int{start} // unreachable for a strongly connected comp
}
