// Nearest current fact rows, through the one vector index over :CurrentFact nodes (every
// relation type), scored again exactly from their stored vectors (see vector_search_nodes.cypher).
// The index spans every group: `seen` tells the store whether asking for more could find more.
// params: group_id, k, vector
CALL db.index.vector.queryNodes('current_fact_embedding', $k, $vector) YIELD node, score
WITH collect(CASE WHEN node.group_id = $group_id
                  THEN {id: node.row_id, score: vector.similarity.cosine(node.embedding, $vector)} END) AS hits,
     count(*) AS seen
RETURN hits, seen
