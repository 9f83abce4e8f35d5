// What a write is about to read, in one statement (Neo4jTx answers its reads from it): the
// group's write lock first, so nothing read can change before the write commits; the entities
// answering to some name keys; and, for some (subject, relation) keys (the subject given by id,
// or by a name key), the end of the key's timeline: the assertion that arrived last, the
// $rows_ahead current rows starting latest and every current row starting at or after the
// earliest of them (bound: null when the key has no more rows than that, so all are read), the
// starts and endings told for a moment at or after it (at most $events_ahead, or none are
// kept), and the key's retractions and withdrawals (at most $events_ahead). Rows come without
// provenance, as rows_of_key does; keys are in microseconds (see rows_of_key.cypher). With each
// key, its assertions of no object (endings of whatever held; at most $events_ahead + 1), and
// for some objects (by name key) the whole pair: its current rows (at most $rows_ahead + 1) and
// every assertion of it (at most $events_ahead + 1), which a write to a many-valued relation
// reads whatever their moments. And the episodes of some ids (whether the group holds them
// yet). With $at_micros (the write's time), what a summary refresh reads (summary_reads.cypher)
// of the entities found and of each key's holder (the object of its one open row among those
// read: a new value of a one-at-a-time relation ends it), so a write that changes only them reads
// nothing more. Moments come as integer microseconds (episode_return.cypher).
// Every lookup names its index and the plan is never made again for new statistics
// (replan=skip): it is the same at any size, and making it costs a second (changes_write.cypher).
// Its lists come in one map, $reads, so that one plan serves every mix of their lengths (as
// changes_write's do).
// params: group_id, reads, rows_ahead, events_ahead, undated, at_micros, newest_limit
CYPHER replan=skip
MERGE (g:MemoryGroup {group_id: $group_id})
  ON CREATE SET g.current_rows = 0, g.current_ended = 0
SET g.writes = coalesce(g.writes, 0) + 1, g.next_seq = coalesce(g.next_seq, 0)
WITH count(g) AS locked
CALL () {
  UNWIND $reads.keys AS key
  MATCH (k:EntityKey {group_id: $group_id, key: key})
  USING INDEX SEEK k:EntityKey(group_id, key)
  MATCH (n:Entity {group_id: $group_id, id: k.entity_id})
  USING INDEX SEEK n:Entity(id)
  RETURN collect({key: key, id: n.id, group_id: n.group_id, name: n.name, type: n.type,
                  aliases: n.aliases, summary: n.summary, seq: n.seq,
                  created_at: n.created_at.epochMillis * 1000 + n.created_at.microsecond % 1000}) AS entities,
         collect(DISTINCT n.id) AS found_ids
}
CALL () {
  UNWIND $reads.episode_ids AS id
  MATCH (e:Episode {group_id: $group_id, id: id})
  USING INDEX SEEK e:Episode(id)
  RETURN collect(e {.id, .group_id, .content, .speaker, .source, .source_id,
                    reference_time: e.reference_time.epochMillis * 1000 + e.reference_time.microsecond % 1000,
                    created_at: e.created_at.epochMillis * 1000 + e.created_at.microsecond % 1000,
                    retracted_at: e.retracted_at.epochMillis * 1000 + e.retracted_at.microsecond % 1000,
                    erased_at: e.erased_at.epochMillis * 1000 + e.erased_at.microsecond % 1000}) AS episodes
}
CALL () {
  UNWIND $reads.windows AS w
  OPTIONAL MATCH (k:EntityKey {group_id: $group_id, key: w.subject_key})
  USING INDEX SEEK k:EntityKey(group_id, key)
  WITH w, coalesce(w.subject_id, k.entity_id) AS subject_id
  WHERE subject_id IS NOT NULL
  CALL (w, subject_id) {
    OPTIONAL MATCH (a:Assertion {group_id: $group_id, subject_id: subject_id, relation: w.relation})
    USING INDEX SEEK a:Assertion(group_id, subject_id, relation, created_at, seq)
    WHERE a.created_at IS NOT NULL AND a.seq IS NOT NULL
    WITH a
    ORDER BY a.group_id DESC, a.subject_id DESC, a.relation DESC, a.created_at DESC, a.seq DESC
    LIMIT 1
    RETURN
    // include: ahead_assertion
    AS latest
  }
  CALL (w, subject_id) {
    OPTIONAL MATCH (c:CurrentFact {group_id: $group_id, subject_id: subject_id, relation: w.relation})
    USING INDEX SEEK c:CurrentFact(group_id, subject_id, relation, key_start)
    WHERE c.key_start >= $undated
    WITH c
    ORDER BY c.group_id DESC, c.subject_id DESC, c.relation DESC, c.key_start DESC
    LIMIT $rows_ahead
    RETURN CASE WHEN count(c) < $rows_ahead THEN null ELSE min(c.key_start) END AS bound
  }
  CALL (w, subject_id, bound) {
    OPTIONAL MATCH (c:CurrentFact {group_id: $group_id, subject_id: subject_id, relation: w.relation})
    USING INDEX SEEK c:CurrentFact(group_id, subject_id, relation, key_start)
    WHERE c.key_start >= coalesce(bound, $undated)
    // include: ahead_row
    RETURN collect(row) AS rows
  }
  CALL (w, subject_id, bound) {
    OPTIONAL MATCH (a:Assertion {group_id: $group_id, subject_id: subject_id, relation: w.relation})
    USING INDEX SEEK a:Assertion(group_id, subject_id, relation, kind, at_key)
    WHERE a.kind IN ['start', 'end'] AND a.at_key >= coalesce(bound, $undated)
    WITH a
    LIMIT $events_ahead + 1
    RETURN collect(
    // include: ahead_assertion
    ) AS events
  }
  CALL (w, subject_id) {
    OPTIONAL MATCH (a:Assertion {group_id: $group_id, subject_id: subject_id, relation: w.relation})
    USING INDEX SEEK a:Assertion(group_id, subject_id, relation, kind, at_key)
    WHERE a.kind IN ['retract', 'withdraw', 'restore'] AND a.at_key >= $undated
    WITH a
    LIMIT $events_ahead + 1
    RETURN collect(
    // include: ahead_assertion
    ) AS voids
  }
  CALL (w, subject_id) {
    OPTIONAL MATCH (a:Assertion {group_id: $group_id, subject_id: subject_id, relation: w.relation})
    USING INDEX SEEK a:Assertion(group_id, subject_id, relation, object_key, kind, at_key)
    WHERE a.object_key = '' AND a.kind IN ['start', 'end', 'retract', 'withdraw', 'restore']
      AND a.at_key >= $undated
    WITH a
    LIMIT $events_ahead + 1
    RETURN collect(
    // include: ahead_assertion
    ) AS unbound
  }
  CALL (w, subject_id) {
    UNWIND w.objects AS object_key
    MATCH (k:EntityKey {group_id: $group_id, key: object_key})
    USING INDEX SEEK k:EntityKey(group_id, key)
    WITH DISTINCT k.entity_id AS object_id
    CALL (w, subject_id, object_id) {
      OPTIONAL MATCH (c:CurrentFact {group_id: $group_id, subject_id: subject_id, relation: w.relation,
                                     object_id: object_id})
      USING INDEX SEEK c:CurrentFact(group_id, subject_id, relation, object_id, key_start)
      WHERE c.key_start >= $undated
      WITH c
      LIMIT $rows_ahead + 1
      // include: ahead_row
      RETURN collect(row) AS rows, count(c) AS nodes
    }
    CALL (w, subject_id, object_id) {
      OPTIONAL MATCH (a:Assertion {group_id: $group_id, subject_id: subject_id, relation: w.relation})
      USING INDEX SEEK a:Assertion(group_id, subject_id, relation, object_key, kind, at_key)
      WHERE a.object_key = object_id AND a.kind IN ['start', 'end', 'retract', 'withdraw', 'restore']
        AND a.at_key >= $undated
      WITH a
      LIMIT $events_ahead + 1
      RETURN collect(
      // include: ahead_assertion
      ) AS told
    }
    RETURN collect({object_id: object_id, rows: rows, nodes: nodes, told: told}) AS pairs
  }
  WITH *, [row IN rows WHERE row.invalid_at IS NULL | row.object_id] AS open_objects
  RETURN collect({subject_key: w.subject_key, subject_id: subject_id, relation: w.relation,
                  latest: latest, bound: bound, rows: rows, events: events, voids: voids,
                  unbound: unbound, pairs: pairs}) AS windows,
         collect(CASE WHEN size(open_objects) = 1 THEN open_objects[0] END) AS holders
}
CALL (found_ids, holders) {
  UNWIND CASE WHEN $at_micros IS NULL THEN [] ELSE found_ids + holders END AS id
  RETURN collect(DISTINCT id) AS summary_ids
}
// include: summary_reads
RETURN locked, entities, episodes, windows, summary_ids, entities_read, summaries_read, newest_read
