// Erase, step 3: assertions removed for good.
// params: group_id, ids
UNWIND $ids AS id
MATCH (a:Assertion {group_id: $group_id, id: id})
USING INDEX SEEK a:Assertion(id)
DETACH DELETE a
