// Forget, step 1 (in transactions of at most $limit deletions, run until fewer are deleted): the
// group's :CurrentFact nodes, index entries that are not records of their own (not counted).
// params: group_id, limit
// The group's counts of them are no longer kept: a forget stopped half-way leaves them unknown.
OPTIONAL MATCH (g:MemoryGroup {group_id: $group_id})
SET g.current_rows = null, g.current_ended = null
WITH count(*) AS unkept
MATCH (c:CurrentFact {group_id: $group_id})
WITH c LIMIT $limit
DELETE c
RETURN count(*) AS removed
