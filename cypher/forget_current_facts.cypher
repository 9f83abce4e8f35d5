// Forget, step 1 (in transactions of at most $limit deletions, run until fewer are deleted): the
// group's :CurrentFact nodes, index entries that are not records of their own (not counted).
// params: group_id, limit
MATCH (c:CurrentFact {group_id: $group_id})
WITH c LIMIT $limit
DELETE c
RETURN count(*) AS removed
