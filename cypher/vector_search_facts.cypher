// Nearest current fact rows of one relation type ($index_name: fact_embedding_<RELATION>).
// params: group_id, index_name, k, vector
CALL db.index.vector.queryRelationships($index_name, $k, $vector) YIELD relationship, score
WITH collect(CASE WHEN relationship.group_id = $group_id AND relationship.expired_at IS NULL
                  THEN {id: relationship.id, score: score} END) AS hits,
     count(*) AS seen
RETURN hits, seen
