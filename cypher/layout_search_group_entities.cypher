// Upgrade (layout 4): a group's entities take its full-text token (see text_search_entities),
// a batch at a time.
// scope: admin
// params: group_id, search_group, batch
MATCH (n:Entity {group_id: $group_id})
WHERE n.search_group IS NULL
WITH n LIMIT $batch
SET n.search_group = $search_group
RETURN count(n) AS upgraded
