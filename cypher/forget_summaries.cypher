// Forget: the group's entity summary versions (before its entities, like every other step).
// params: group_id
MATCH (s:EntitySummary {group_id: $group_id})
DELETE s
RETURN count(*) AS removed
