// The assertion about one (subject, relation) that arrived last: a new one comes after it.
// params: group_id, subject_id, relation
MATCH (a:Assertion {group_id: $group_id, subject_id: $subject_id, relation: $relation})
// include: assertion_return
ORDER BY a.created_at DESC, a.seq DESC
LIMIT 1
