// Forget, with its fact rows (one transaction): their :CurrentFact nodes, index entries that are
// not records of their own (not counted).
// params: group_id
MATCH (c:CurrentFact {group_id: $group_id})
DELETE c
RETURN count(*) AS deleted
