// Nearest current fact rows of one relation type ($index_name: fact_embedding_<RELATION>), scored
// again exactly from their stored vectors (see vector_search_nodes.cypher).
// params: group_id, index_name, k, vector
CALL db.index.vector.queryRelationships($index_name, $k, $vector) YIELD relationship, score
WITH collect(CASE WHEN relationship.group_id = $group_id AND relationship.expired_at IS NULL
                  THEN {id: relationship.id,
                        score: vector.similarity.cosine(relationship.embedding, $vector)} END) AS hits,
     count(*) AS seen
RETURN hits, seen
