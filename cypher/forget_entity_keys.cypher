// Forget, step 4 of 5: the group's entity name keys.
// params: group_id
MATCH (k:EntityKey {group_id: $group_id})
DELETE k
RETURN count(*) AS removed
