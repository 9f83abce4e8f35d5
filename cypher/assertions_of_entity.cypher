// Every assertion with one entity as subject or object.
// params: group_id, entity_id
MATCH (a:Assertion {group_id: $group_id})
WHERE a.subject_id = $entity_id OR a.object_id = $entity_id
// include: assertion_return
