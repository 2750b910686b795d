"""The engine's ready queue: which of the nodes whose gradients have all arrived runs next.

PyTorch keeps ready nodes in a `std::priority_queue` ordered by `sequence_nr`, the creation number every
node gets: of the ready nodes, the one created last runs first (it is the closest to the output). An
`AccumulateGrad` node has the largest possible number, so a leaf's `.grad` is filled as soon as its gradient is
complete. Several ready `AccumulateGrad` nodes tie; PyTorch then takes them in the order its binary heap
happens to give, and so does this queue: it is the same heap (libstdc++'s `push_heap`/`pop_heap`), written out
in Python, so that minigrad visits nodes in exactly PyTorch's order, in every process (nothing here depends on
memory addresses).
"""


class ReadyQueue:
    """A max-heap of nodes keyed by `node._priority` (`sequence_nr`, or infinity for `AccumulateGrad`)."""

    __slots__ = ("heap",)

    def __init__(self):
        self.heap = []

    def __len__(self):
        return len(self.heap)

    def push(self, node):
        """Add `node`, then sift it up past every parent of lower priority (libstdc++ `__push_heap`)."""
        heap = self.heap
        heap.append(node)
        if len(heap) > 1:
            _sift_up(heap, len(heap) - 1, 0, node)

    def pop(self):
        """Remove and return the node of highest priority (libstdc++ `pop_heap`, then `pop_back`)."""
        heap = self.heap
        last = heap.pop()
        if not heap:
            return last
        top, heap[0] = heap[0], last
        _adjust_heap(heap, last)
        return top


def _sift_up(heap, hole, top, node):
    key = node._priority
    parent = (hole - 1) // 2
    while hole > top and heap[parent]._priority < key:
        heap[hole] = heap[parent]
        hole = parent
        parent = (hole - 1) // 2
    heap[hole] = node


def _adjust_heap(heap, node):
    """Move the hole at the root down to a leaf, always towards the larger child, then sift `node` up into it.

    This is libstdc++'s `__adjust_heap`; its exact steps decide the order of nodes of equal priority.
    """
    n = len(heap)
    hole = child = 0
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if heap[child]._priority < heap[child - 1]._priority:
            child -= 1
        heap[hole] = heap[child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        heap[hole] = heap[child - 1]
        hole = child - 1
    _sift_up(heap, hole, 0, node)
