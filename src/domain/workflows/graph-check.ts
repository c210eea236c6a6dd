// The shape a workflow's steps must have to be published: every step reachable from the first,
// every path able to end (no step from which no end can be reached: a trap), and no loop a run could
// go round without waiting (it would spin at once, for ever). Loops that wait are allowed (a
// reminder every week until the goal), so long as an end stays reachable. Pure, on the steps' keys
// and ways on; linear in steps and ways, without recursion (a graph of any shape is checked in
// bounded stack).

export interface CheckedStep {
  key: string;
  /** The field naming each way on, and the step it leads to. */
  next: { field: string; to: string }[];
  /** Waits before going on (a duration, a time of day, an event): a loop through it does not spin. */
  waits: boolean;
  /** Ends the run. */
  ends: boolean;
}

export interface GraphProblem {
  field: string;
  message: string;
}

/** Every problem of the graph, each naming its step; none when it may be published. `steps[0]` is the first. */
export function graphProblems(steps: CheckedStep[], path = 'steps'): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const index = new Map(steps.map((s, i) => [s.key, i]));
  const edges: number[][] = steps.map((s) => {
    const out: number[] = [];
    for (const n of s.next) {
      const to = index.get(n.to);
      if (to === undefined) problems.push({ field: n.field, message: `step ${s.key} leads to ${n.to}, which is no step of this workflow` });
      else out.push(to);
    }
    return out;
  });
  steps.forEach((s, i) => {
    if (!s.ends && s.next.length === 0)
      problems.push({ field: `${path}.${i}`, message: `step ${s.key} is a dead end: name the step after it, or end the run` });
  });
  if (problems.length || steps.length === 0) return problems;

  // Reachable from the first step.
  const reached = walk([0], (i) => edges[i]!);
  steps.forEach((s, i) => {
    if (!reached.has(i))
      problems.push({ field: `${path}.${i}`, message: `step ${s.key} cannot be reached from the first step (${steps[0]!.key})` });
  });

  // Able to end: walked backwards from every end.
  const into: number[][] = steps.map(() => []);
  edges.forEach((out, from) => out.forEach((to) => into[to]!.push(from)));
  const ending = walk(
    steps.flatMap((s, i) => (s.ends ? [i] : [])),
    (i) => into[i]!,
  );
  steps.forEach((s, i) => {
    if (reached.has(i) && !ending.has(i))
      problems.push({
        field: `${path}.${i}`,
        message: `step ${s.key} never ends: every way on from it loops without reaching an end step`,
      });
  });

  // Loops without a wait: a cycle among the steps that do not wait.
  const still = steps.map((s) => !s.waits);
  for (const component of components(edges, still)) {
    problems.push({
      field: `${path}.${component[0]}`,
      message: `steps ${component.map((i) => steps[i]!.key).join(', ')} loop without waiting: put a wait in the loop`,
    });
  }
  return problems;
}

/** Every node reached from `from` along `next`. */
function walk(from: number[], next: (i: number) => number[]): Set<number> {
  const seen = new Set(from);
  const stack = [...from];
  while (stack.length) for (const to of next(stack.pop()!)) if (!seen.has(to)) (seen.add(to), stack.push(to));
  return seen;
}

/**
 * The loops among the nodes `inside` (Tarjan's strongly connected components, iterative): each
 * component of two or more, or of one with an edge to itself, its nodes in order, the components in
 * order of their first node.
 */
function components(edges: number[][], inside: boolean[]): number[][] {
  const n = edges.length;
  const order = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  const found: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (!inside[root] || order[root] !== -1) continue;
    const frames: { node: number; edge: number }[] = [{ node: root, edge: 0 }];
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = true;
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      const out = edges[frame.node]!;
      if (frame.edge < out.length) {
        const to = out[frame.edge++]!;
        if (!inside[to]) continue;
        if (order[to] === -1) {
          order[to] = low[to] = counter++;
          stack.push(to);
          onStack[to] = true;
          frames.push({ node: to, edge: 0 });
        } else if (onStack[to]) low[frame.node] = Math.min(low[frame.node]!, order[to]!);
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent.node] = Math.min(low[parent.node]!, low[frame.node]!);
      if (low[frame.node] !== order[frame.node]) continue;
      const component: number[] = [];
      let member: number;
      do {
        member = stack.pop()!;
        onStack[member] = false;
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges[frame.node]!.includes(frame.node)) found.push(component.sort((a, b) => a - b));
    }
  }
  return found.sort((a, b) => a[0]! - b[0]!);
}
