// retract_episode: the message no longer feeds search, context or ask (set once).
// params: group_id, id, at
MATCH (e:Episode {group_id: $group_id, id: $id})
USING INDEX SEEK e:Episode(id)
WHERE e.retracted_at IS NULL
SET e.retracted_at = $at
