// Full-text search over episode contents, the best $limit of one group asked of the index
// ($query: `+search_group:<token>^0 +content:(<quoted words>)`; see text_search_facts). A withdrawn
// message has no token and an erased one no text, so neither is offered.
// params: group_id, query, limit
// Waits for the index's background refresh first (see text_search_facts).
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
CALL db.index.fulltext.queryNodes('episode_contents', $query, {limit: $limit}) YIELD node, score
WITH node, score
WHERE node.group_id = $group_id AND node.retracted_at IS NULL AND node.erased_at IS NULL
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
