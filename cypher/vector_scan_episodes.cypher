// The group's nearest episodes (never a withdrawn or erased one) by an exact scan of its own
// vectors, scored as vector_search_nodes.cypher scores them, when the group holds at most $most of them
// (`scanned`; otherwise no hits): what the store asks when the vector index's nearest, drawn from
// every group, held too few of this one's, as for a small group beside large ones.
// params: group_id, k, vector, most
CALL () {
  MATCH (n:Episode {group_id: $group_id})
  WITH n LIMIT $most + 1
  RETURN count(n) <= $most AS scanned
}
CALL (scanned) {
  WITH scanned WHERE scanned
  MATCH (n:Episode {group_id: $group_id})
  WHERE n.embedding IS NOT NULL AND n.retracted_at IS NULL AND n.erased_at IS NULL
  WITH n.id AS id, vector.similarity.cosine(n.embedding, $vector) AS score
  ORDER BY score DESC, id
  LIMIT $k
  RETURN collect({id: id, score: score}) AS hits
}
RETURN hits, scanned
