// Upgrade (layout 4): a group's messages in recall take its full-text token (see
// text_search_episodes), a batch at a time.
// scope: admin
// params: group_id, search_group, batch
MATCH (n:Episode {group_id: $group_id})
WHERE n.search_group IS NULL AND n.retracted_at IS NULL AND n.erased_at IS NULL
WITH n LIMIT $batch
SET n.search_group = $search_group
RETURN count(n) AS upgraded
