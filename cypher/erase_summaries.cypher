// Erase, step 4: entity summary versions removed for good.
// params: group_id, ids
UNWIND $ids AS id
MATCH (s:EntitySummary {group_id: $group_id, id: id})
USING INDEX SEEK s:EntitySummary(id)
DELETE s
