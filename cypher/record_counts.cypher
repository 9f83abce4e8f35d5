// How many records of each kind a group holds (Store.record_counts, a copy's final comparison),
// counted on the server, none of them sent: what entities_all, episodes_all, assertions_all,
// summaries_read and insights_read return of every version, every fact version (facts_count),
// and the ids facts_missing_embedding, entities_missing_embedding and episodes_missing_embedding
// list. Reading them all to count them was a fifth of a 20,000-fact copy into Neo4j.
// params: group_id
CALL () {
  MATCH (n:Entity {group_id: $group_id})
  RETURN count(n) AS entities, count(CASE WHEN n.embedding IS NULL THEN 1 END) AS entities_unembedded
}
CALL () {
  MATCH (e:Episode {group_id: $group_id})
  RETURN count(e) AS episodes,
         count(CASE WHEN e.embedding IS NULL AND e.retracted_at IS NULL AND e.erased_at IS NULL
               THEN 1 END) AS episodes_unembedded
}
CALL () {
  MATCH (a:Assertion {group_id: $group_id})
  RETURN count(a) AS assertions
}
CALL () {
  MATCH (s:EntitySummary {group_id: $group_id})
  RETURN count(s) AS summaries
}
CALL () {
  MATCH (i:Insight {group_id: $group_id})
  RETURN count(i) AS insights
}
CALL () {
  // A fact row joins two entities of its own group: its far end is not matched (facts_count.cypher).
  MATCH (s:Entity {group_id: $group_id})-[r]->()
  USING INDEX SEEK s:Entity(group_id)
  WHERE r.group_id = $group_id AND r.fact_id IS NOT NULL
  RETURN count(r) AS facts,
         count(CASE WHEN r.expired_at IS NULL AND r.embedding IS NULL THEN 1 END) AS facts_unembedded
}
RETURN entities, episodes, assertions, facts, summaries, insights,
       facts_unembedded, entities_unembedded, episodes_unembedded
