"""Build the dealer draw trie (pure Python; runs once per starting hand and rule).

The compiled ``DealerTrie`` evaluates the nodes built here for any shoe.  A node is one
composition ``D`` of cards drawn after the starting hand, reached by adding ranks in
non-decreasing order so that every multiset appears once.
"""


def _soft_total(hard, aces):
    return hard + 10 if aces and hard + 10 <= 21 else hard


def build_dealer_nodes(start, hit_soft_17):
    """Nodes ``[rank index, prior, depth, outcome, orders, skip]`` in pre-order.

    ``outcome`` is 0..4 for a final 17..21, 5 for a natural, -1 for a bust or a hand that
    is not final; ``orders`` counts the draw orders of the composition whose proper
    prefixes all hit (so the dealer stops exactly there); ``skip`` is the index just past
    the node's subtree.
    """
    start = tuple(int(c) for c in start)
    if not start or any(c < 1 or c > 10 for c in start):
        raise ValueError(f"dealer start hand must be ranks 1..10, got {start!r}")
    hard0, aces0 = sum(start), start.count(1)
    single_card = len(start) == 1
    starts_natural = sorted(start) == [1, 10]

    def hits(drawn):
        hard, aces = hard0 + sum(drawn), aces0 + drawn.count(1)
        if starts_natural and not drawn:
            return False
        total = _soft_total(hard, aces)
        soft_17 = total == 17 and aces and hard + 10 == 17
        return total <= 16 or bool(hit_soft_17 and soft_17)

    hitting_memo = {}

    def orders_into(drawn):
        # draw orders of `drawn` whose proper prefixes all hit: sum over the last card
        count = 0
        for i, r in enumerate(drawn):
            if i and drawn[i - 1] == r:
                continue
            count += hitting_orders(drawn[:i] + drawn[i + 1:])
        return count

    def hitting_orders(drawn):
        # draw orders reaching `drawn` with the dealer still drawing afterwards
        if drawn not in hitting_memo:
            if not hits(drawn):
                hitting_memo[drawn] = 0
            else:
                hitting_memo[drawn] = 1 if not drawn else orders_into(drawn)
        return hitting_memo[drawn]

    def final_orders(drawn):
        if hits(drawn):
            return 0
        return 1 if not drawn else orders_into(drawn)

    def outcome(drawn):
        if starts_natural and not drawn:
            return 5
        if single_card and len(drawn) == 1 and sorted(start + drawn) == [1, 10]:
            return 5
        total = _soft_total(hard0 + sum(drawn), aces0 + drawn.count(1))
        return total - 17 if 17 <= total <= 21 else -1

    nodes = []

    def visit(drawn):
        # Returns True when the subtree holds a final composition.  Every final
        # composition has a hard total of at most 26 (at most 16 before its last card),
        # and so have its canonical ancestors: that bounds the walk.
        me = len(nodes)
        last = drawn[len(drawn) - 1] if drawn else 1
        nodes.append([last - 1 if drawn else -1,
                      drawn[:len(drawn) - 1].count(last) if drawn else 0,
                      len(drawn), outcome(drawn), final_orders(drawn), 0])
        keep = nodes[me][4] > 0
        hard = hard0 + sum(drawn)
        for nxt in range(last, 11):
            if hard + nxt <= 26:
                keep = visit(drawn + (nxt,)) or keep
        if not keep and me > 0:
            del nodes[me:]
            return False
        nodes[me][5] = len(nodes)
        return True

    visit(())
    return nodes
