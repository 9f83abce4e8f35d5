// retract_episode: the message no longer feeds search, context or ask (set once); without its
// group's token, the full-text index no longer offers it.
// params: group_id, id, at
MATCH (e:Episode {group_id: $group_id, id: $id})
USING INDEX SEEK e:Episode(id)
WHERE e.retracted_at IS NULL
SET e.retracted_at = $at, e.search_group = null
