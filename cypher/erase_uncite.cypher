// Erase, step 2: the versions that stay stop citing the erased episodes.
// params: group_id, episode_ids
// A fact row joins two entities of its own group, so its far end is not matched by label and
// group: matched so, it could be planned as a scan of the group for each entity.
MATCH (s:Entity {group_id: $group_id})-[r]->()
USING INDEX SEEK s:Entity(group_id)
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
  AND any(e IN coalesce(r.episode_ids, []) WHERE e IN $episode_ids)
SET r.episode_ids = [e IN r.episode_ids WHERE NOT e IN $episode_ids]
