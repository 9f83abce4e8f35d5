// One message's text and vector go; the node stays, marked erased (episodes_erase_text.cypher by
// id, for a copy that brings its target level with a pruned source).
// params: group_id, id, at
MATCH (e:Episode {group_id: $group_id, id: $id})
USING INDEX SEEK e:Episode(id)
WHERE e.erased_at IS NULL
SET e.content = '', e.erased_at = $at
REMOVE e.embedding
