// Full-text search over episode contents.
// params: group_id, query, limit
CALL db.index.fulltext.queryNodes('episode_contents', $query) YIELD node, score
WITH node, score
WHERE node.group_id = $group_id
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
