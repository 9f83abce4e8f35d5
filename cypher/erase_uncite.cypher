// Erase, step 2: the versions that stay stop citing the erased episodes.
// params: group_id, episode_ids
MATCH (:Entity {group_id: $group_id})-[r]->(:Entity {group_id: $group_id})
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
  AND any(e IN coalesce(r.episode_ids, []) WHERE e IN $episode_ids)
SET r.episode_ids = [e IN r.episode_ids WHERE NOT e IN $episode_ids]
