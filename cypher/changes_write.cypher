// A write's changes to one group, in one statement (Neo4jTx holds them until the write reads the
// server again or ends): the group's lock and insertion counter, new or renamed entities with
// their keys and type labels, episodes, assertions, new fact rows (typed by their relation, each
// current one with its :CurrentFact node), the provenance, vectors and expiry of current rows
// (found through their :CurrentFact node and its element id, whatever their type), mentions,
// the insights citing the rows it expires, entity summaries, and the group's counts of current
// rows. Each list may be empty. Rows and vectors are put before the expiries, so a row written
// and expired by one write is written first. What it could not find comes back (the store writes
// those by their type, or refuses).
// Every lookup names its index: a plan cached while the database was small (the first writes)
// is reused for a load of thousands of rows, where a label scan per row took minutes. So the plan
// does not depend on the statistics, and it is never made again when they change (replan=skip):
// making it takes a second or more, which a fresh database's writes paid every few seconds.
// The lists come in one map, $changes: the server keeps a plan per text and per parameter types,
// and a list parameter's type counts its length's order of magnitude (empty, 1, 10, 100, ...),
// so with a parameter per list each new mix of lengths was a new plan, a write of 1.2-1.7 s.
// What a map holds is not part of its type: one plan serves every write.
// $search_group is the group's full-text token (see text_search_facts.cypher): new entities,
// messages and current rows carry it, an expired row no longer does.
// Relation types and labels come as values checked by the store (check_identifier). Moments come
// as ISO 8601 text (UTC) made datetimes here: the driver packs a datetime parameter in Python, which
// was most of a bulk load's client time.
// Then, for the entities of $changes.summaries_of (those the write changed, whose summaries it is about
// to refresh), what the refresh reads, as the write leaves them: each entity, its current
// summary, and its current rows not ended at $at_micros, newest first (facts_newest.cypher),
// the first $newest_limit of them.
// Their times come back as microseconds since the epoch: the driver decodes a DATETIME in
// Python (~50 µs each), which was most of the client's time on a bulk batch's thousands of rows.
// params: group_id, search_group, seq_count, changes, at_micros, newest_limit
CYPHER replan=skip
MERGE (g:MemoryGroup {group_id: $group_id})
  ON CREATE SET g.current_rows = 0, g.current_ended = 0
SET g.writes = coalesce(g.writes, 0) + 1,
    g.next_seq = coalesce(g.next_seq, 0) + $seq_count,
    g.relations = reduce(held = coalesce(g.relations, []), rel IN $changes.relations |
                         CASE WHEN rel IN held THEN held ELSE held + rel END)
WITH g, g.next_seq - $seq_count AS first_seq
CALL (first_seq) {
  UNWIND $changes.entities AS row
  MERGE (n:Entity {id: row.id, group_id: $group_id})
    ON CREATE SET n.name = row.name, n.key = row.key, n.created_at = datetime(row.created_at),
                  n.seq = first_seq + row.seq, n.search_group = $search_group
  WITH n, row, n.type AS old_type
  SET n.type = row.type, n.aliases = row.aliases, n.summary = row.summary, n.name_text = row.name_text
  FOREACH (_ IN CASE WHEN row.label IS NULL THEN [] ELSE [1] END | SET n:$(row.label))
  WITH n, row, old_type
  WHERE old_type IS NOT NULL AND old_type <> row.type
  RETURN collect({id: n.id, old_type: old_type}) AS retyped
}
CALL () {
  UNWIND $changes.keys AS row
  MERGE (k:EntityKey {group_id: $group_id, key: row.key})
    ON CREATE SET k.entity_id = row.entity_id
}
CALL (first_seq) {
  UNWIND $changes.episodes AS row
  CREATE (e:Episode {id: row.id, group_id: $group_id})
  SET e.content = row.content, e.speaker = row.speaker, e.source = row.source,
      e.source_id = row.source_id, e.reference_time = datetime(row.reference_time),
      e.created_at = datetime(row.created_at), e.seq = first_seq + row.seq, e.search_group = $search_group
}
CALL () {
  UNWIND $changes.assertions AS row
  CREATE (a:Assertion {id: row.id, group_id: $group_id})
  SET a.subject_id = row.subject_id, a.relation = row.relation, a.object_id = row.object_id,
      a.kind = row.kind, a.at = datetime(row.at), a.until = datetime(row.until),
      a.created_at = datetime(row.created_at),
      a.seq = row.seq, a.episode_id = row.episode_id, a.text = row.text,
      a.confidence = row.confidence, a.importance = row.importance,
      a.attributes_json = row.attributes_json, a.at_key = row.at_key, a.object_key = row.object_key
}
CALL () {
  UNWIND $changes.insert AS row
  MATCH (s:Entity {group_id: $group_id, id: row.subject_id})
  USING INDEX SEEK s:Entity(id)
  MATCH (o:Entity {group_id: $group_id, id: row.object_id})
  USING INDEX SEEK o:Entity(id)
  CREATE (s)-[r:$(row.relation) {id: row.id, group_id: $group_id}]->(o)
  SET r.fact_id = row.fact_id, r.relation = row.relation, r.text = row.text,
      r.valid_at = datetime(row.valid_at), r.invalid_at = datetime(row.invalid_at),
      r.created_at = datetime(row.created_at), r.expired_at = datetime(row.expired_at),
      r.episode_ids = row.episode_ids, r.confidence = row.confidence, r.importance = row.importance,
      r.attributes_json = row.attributes_json
  FOREACH (_ IN CASE WHEN row.current IS NULL THEN [] ELSE [1] END |
    // include: current_fact_create
  )
  RETURN count(r) AS inserted, count(row.current) AS current_added,
         count(row.current.ends) AS ended_added
}
CALL () {
  UNWIND $changes.provenance AS row
  MATCH (c:CurrentFact {group_id: $group_id, row_id: row.id})
  USING INDEX SEEK c:CurrentFact(row_id)
  CALL (c, row) {
    MATCH ()-[r]->()
    WHERE elementId(r) = c.rel
    SET r.episode_ids = coalesce(r.episode_ids, []) +
                        [e IN row.episode_ids WHERE NOT e IN coalesce(r.episode_ids, [])]
    RETURN r.id AS cited_id
  }
  RETURN collect(cited_id) AS cited
}
CALL () {
  UNWIND $changes.fact_vectors AS row
  MATCH (c:CurrentFact {group_id: $group_id, row_id: row.id})
  USING INDEX SEEK c:CurrentFact(row_id)
  SET c.embedding = row.vector
  WITH c, row
  CALL (c, row) {
    MATCH ()-[r]->()
    WHERE elementId(r) = c.rel
    SET r.embedding = row.vector
    RETURN r.id AS vector_id
  }
  RETURN collect(vector_id) AS fact_vectors_set
}
CALL () {
  UNWIND $changes.entity_vectors AS row
  MATCH (n:Entity {group_id: $group_id, id: row.id})
  USING INDEX SEEK n:Entity(id)
  SET n.embedding = row.vector
  RETURN collect(n.id) AS entity_vectors_set
}
CALL () {
  UNWIND $changes.episode_vectors AS row
  MATCH (n:Episode {group_id: $group_id, id: row.id})
  USING INDEX SEEK n:Episode(id)
  SET n.embedding = row.vector
  RETURN collect(n.id) AS episode_vectors_set
}
CALL () {
  UNWIND $changes.expire AS row
  MATCH (c:CurrentFact {group_id: $group_id, row_id: row.id})
  USING INDEX SEEK c:CurrentFact(row_id)
  CALL (c, row) {
    MATCH ()-[r]->()
    WHERE elementId(r) = c.rel AND r.expired_at IS NULL
    SET r.expired_at = datetime(row.expired_at), r.search_group = null
    RETURN count(r) AS one
  }
  WITH c, one, c.ends AS ends
  DELETE c
  RETURN sum(one) AS expired, count(*) AS current_removed, count(ends) AS ended_removed
}
CALL () {
  UNWIND $changes.mentions AS row
  MATCH (ep:Episode {group_id: $group_id, id: row.episode_id})
  USING INDEX SEEK ep:Episode(id)
  MATCH (n:Entity {group_id: $group_id, id: row.entity_id})
  USING INDEX SEEK n:Entity(id)
  MERGE (ep)-[:MENTIONS]->(n)
}
CALL () {
  UNWIND $changes.expire_citing AS row
  MATCH (e:InsightEvidence {group_id: $group_id, cited_id: row.cited_id})
  USING INDEX SEEK e:InsightEvidence(group_id, cited_id)
  MATCH (i:Insight {group_id: $group_id, id: e.insight_id})
  USING INDEX SEEK i:Insight(id)
  WHERE i.expired_at IS NULL
  SET i.expired_at = datetime(row.at)
}
CALL () {
  UNWIND $changes.summaries_ended AS row
  MATCH (s:EntitySummary {group_id: $group_id, entity_id: row.entity_id})
  USING INDEX SEEK s:EntitySummary(group_id, entity_id)
  WHERE s.expired_at IS NULL
  SET s.expired_at = datetime(row.at)
}
CALL () {
  UNWIND $changes.summaries AS row
  OPTIONAL MATCH (old:EntitySummary {group_id: $group_id, entity_id: row.entity_id})
  USING INDEX SEEK old:EntitySummary(group_id, entity_id)
  WHERE old.expired_at IS NULL
  SET old.expired_at = datetime(row.created_at)
  WITH row, count(old) AS superseded
  CREATE (s:EntitySummary {id: row.id, group_id: $group_id})
  SET s.entity_id = row.entity_id, s.entity = row.entity, s.text = row.text, s.method = row.method,
      s.fact_ids = row.fact_ids, s.created_at = datetime(row.created_at)
}
CALL () {
  UNWIND $changes.summary_due AS row
  MATCH (e:Entity {group_id: $group_id, id: row.id})
  USING INDEX SEEK e:Entity(id)
  WHERE coalesce(e.summary_due, false) <> row.due
  SET e.summary_due = row.due
}
// The group's current rows and those of them with an end, kept for search's count
// (facts_count_current.cypher); null in a group whose count is not kept, which stays so.
SET g.current_rows = g.current_rows + current_added - current_removed,
    g.current_ended = g.current_ended + ended_added - ended_removed
WITH *, $changes.summaries_of AS summary_ids
// include: summary_reads
RETURN retyped, inserted, cited, fact_vectors_set, entity_vectors_set, episode_vectors_set, expired,
       entities_read, summaries_read, newest_read
