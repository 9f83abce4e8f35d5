// The assertions about one (subject, relation), in arrival order.
// params: group_id, subject_id, relation
MATCH (a:Assertion {group_id: $group_id, subject_id: $subject_id, relation: $relation})
// include: assertion_return
ORDER BY a.created_at, a.seq, a.id
