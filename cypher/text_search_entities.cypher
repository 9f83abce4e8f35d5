// Full-text search over entity names and aliases. $query is built by the store from quoted words only.
// params: group_id, query, limit
CALL db.index.fulltext.queryNodes('entity_names', $query) YIELD node, score
WITH node, score
WHERE node.group_id = $group_id
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
