// The group's nearest current fact rows by an exact scan of its own vectors, scored as
// vector_search_facts.cypher scores them, when the group holds at most $most of them
// (`scanned`; otherwise no hits): what the store asks when the vector index's nearest, drawn from
// every group, held too few of this one's, as for a small group beside large ones.
// params: group_id, k, vector, most
CALL () {
  MATCH (c:CurrentFact {group_id: $group_id})
  WITH c LIMIT $most + 1
  RETURN count(c) <= $most AS scanned
}
CALL (scanned) {
  WITH scanned WHERE scanned
  MATCH (c:CurrentFact {group_id: $group_id})
  WHERE c.embedding IS NOT NULL
  WITH c.row_id AS id, vector.similarity.cosine(c.embedding, $vector) AS score
  ORDER BY score DESC, id
  LIMIT $k
  RETURN collect({id: id, score: score}) AS hits
}
RETURN hits, scanned
