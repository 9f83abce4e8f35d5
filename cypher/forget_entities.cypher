// Forget, step 5 of 5: the group's entities and its lock node (the lock is not counted,
// like the embedded store's group table).
// params: group_id
OPTIONAL MATCH (g:MemoryGroup {group_id: $group_id})
DELETE g
WITH count(*) AS ignored
MATCH (n:Entity {group_id: $group_id})
DETACH DELETE n
RETURN count(*) AS removed
