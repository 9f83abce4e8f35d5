// Upgrade (layout 4): a group's current fact rows take its full-text token (see
// text_search_facts), a batch at a time.
// scope: admin
// params: group_id, search_group, batch
MATCH (c:CurrentFact {group_id: $group_id})
MATCH ()-[r]->()
WHERE elementId(r) = c.rel AND r.search_group IS NULL
WITH r LIMIT $batch
SET r.search_group = $search_group
RETURN count(r) AS upgraded
