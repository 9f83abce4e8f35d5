// The assertion about one (subject, relation) that arrived last: a new one comes after it. The
// first entry of the key's arrival index, read backwards.
// params: group_id, subject_id, relation
MATCH (a:Assertion {group_id: $group_id, subject_id: $subject_id, relation: $relation})
USING INDEX SEEK a:Assertion(group_id, subject_id, relation, created_at, seq)
WHERE a.created_at IS NOT NULL AND a.seq IS NOT NULL
// include: assertion_return
ORDER BY a.group_id DESC, a.subject_id DESC, a.relation DESC, a.created_at DESC, a.seq DESC
LIMIT 1
