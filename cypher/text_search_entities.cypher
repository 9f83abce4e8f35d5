// Full-text search over entity names and aliases, the best $limit of one group asked of the
// index ($query: `+search_group:<token>^0 +name_text:(<quoted words>)`; see text_search_facts).
// params: group_id, query, limit
// Waits for the index's background refresh first (see text_search_facts).
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
CALL db.index.fulltext.queryNodes('entity_names', $query, {limit: $limit}) YIELD node, score
WITH node, score
WHERE node.group_id = $group_id
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
