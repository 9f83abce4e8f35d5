// Retention: the text and vector of the messages told before $before go; the nodes stay as ids
// marked erased, so the facts they supported still cite them ("source erased").
// params: group_id, before, at
MATCH (e:Episode {group_id: $group_id})
WHERE e.reference_time < $before AND e.erased_at IS NULL
SET e.content = '', e.erased_at = $at
REMOVE e.embedding
RETURN count(e) AS erased, collect(e.id) AS ids
