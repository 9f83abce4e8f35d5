// Full-text search over episode contents (withdrawn and erased messages are never offered).
// params: group_id, query, limit
CALL db.index.fulltext.queryNodes('episode_contents', $query) YIELD node, score
WITH node, score
WHERE node.group_id = $group_id AND node.retracted_at IS NULL AND node.erased_at IS NULL
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
