// Start of every write transaction on a group: take the group's write lock (so writers of one
// group never interleave, like the embedded store's single writer) and reserve `count` sequence
// numbers that keep insertion order of entities and episodes.
// params: group_id, count
MERGE (g:MemoryGroup {group_id: $group_id})
  ON CREATE SET g.current_rows = 0, g.current_ended = 0
SET g.writes = coalesce(g.writes, 0) + 1,
    g.next_seq = coalesce(g.next_seq, 0) + $count
RETURN g.next_seq - $count AS first_seq
