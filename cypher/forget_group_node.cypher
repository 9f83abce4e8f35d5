// Forget, last step, with the erasure receipt: the group's lock node (not counted, like the
// embedded store's group table).
// params: group_id
OPTIONAL MATCH (g:MemoryGroup {group_id: $group_id})
DELETE g
RETURN count(g) AS removed
