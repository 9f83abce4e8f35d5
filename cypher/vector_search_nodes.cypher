// Nearest entities or episodes ($index_name: entity_embedding or episode_embedding). The index
// is database-wide, so the $k nearest are filtered to the group; `seen` tells the store whether
// asking for more could find more. Withdrawn or erased episodes are never offered. The index's own
// scores are approximate (its vectors are quantized): each candidate is scored again exactly from
// its stored vector, and the store keeps the best.
// params: group_id, index_name, k, vector
CALL db.index.vector.queryNodes($index_name, $k, $vector) YIELD node, score
WITH collect(CASE WHEN node.group_id = $group_id AND node.retracted_at IS NULL
                        AND node.erased_at IS NULL
                   THEN {id: node.id, score: vector.similarity.cosine(node.embedding, $vector)} END) AS hits,
     count(*) AS seen
RETURN hits, seen
