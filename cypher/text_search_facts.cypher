// Full-text search over the text of current fact rows.
// params: group_id, query, limit
CALL db.index.fulltext.queryRelationships('fact_text', $query) YIELD relationship, score
WITH relationship AS r, score
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.expired_at IS NULL
RETURN r.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
