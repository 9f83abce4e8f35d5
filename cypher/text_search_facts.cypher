// Full-text search over the text of current fact rows: the index is asked for the best $limit
// rows of one group that are current, its query requiring the group's token with no weight
// ($query: `+search_group:<token>^0 +text:(<quoted words>)`, built by the store), so it does not
// hand back every row of every group that shares a word for Cypher to filter and sort (a word
// as common as a name's took 100 ms at 20,000 facts). The filters below only confirm it.
// params: group_id, query, limit
// The index refreshes in the background (schema.cypher): waiting for it first, the search sees
// every write committed before it, as the store's other reads do (at once when none is pending).
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
CALL db.index.fulltext.queryRelationships('fact_text', $query, {limit: $limit}) YIELD relationship, score
WITH relationship AS r, score
WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL AND r.expired_at IS NULL
RETURN r.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
