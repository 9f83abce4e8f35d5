// Erase, step 5: episodes removed for good (text, vector and full-text entry go with the node).
// params: group_id, ids
UNWIND $ids AS id
MATCH (e:Episode {group_id: $group_id, id: id})
USING INDEX SEEK e:Episode(id)
DETACH DELETE e
