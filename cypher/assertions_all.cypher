// Every assertion of a group, in arrival order (export).
// params: group_id
MATCH (a:Assertion {group_id: $group_id})
// include: assertion_return
ORDER BY a.created_at, a.seq, a.id
