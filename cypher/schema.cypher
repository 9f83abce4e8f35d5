// The static schema, applied statement by statement (split at ';' ending a line) on connect.
// Every command is idempotent (IF NOT EXISTS). Per-relation-type schema lives in
// schema_relation.cypher and the fact full-text index in fact_text_create.cypher, because
// relationship indexes need the relationship type(s) they cover.
// scope: schema
// params:
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT assertion_id IF NOT EXISTS FOR (n:Assertion) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT memory_group_id IF NOT EXISTS FOR (n:MemoryGroup) REQUIRE n.group_id IS UNIQUE;
// One entity per (group, name key): the first entity to claim a key keeps it.
CREATE CONSTRAINT entity_key_unique IF NOT EXISTS FOR (n:EntityKey) REQUIRE (n.group_id, n.key) IS UNIQUE;
// Nodes without a source_id are not constrained, like a partial unique index.
CREATE CONSTRAINT episode_source_unique IF NOT EXISTS FOR (n:Episode) REQUIRE (n.group_id, n.source_id) IS UNIQUE;
CREATE CONSTRAINT entity_summary_id IF NOT EXISTS FOR (n:EntitySummary) REQUIRE n.id IS UNIQUE;
CREATE INDEX entity_summary_entity IF NOT EXISTS FOR (n:EntitySummary) ON (n.group_id, n.entity_id);
CREATE CONSTRAINT insight_id IF NOT EXISTS FOR (n:Insight) REQUIRE n.id IS UNIQUE;
CREATE INDEX insight_group IF NOT EXISTS FOR (n:Insight) ON (n.group_id);
// The erasure log (receipts by group key, in the order written; one counter node per group key).
CREATE CONSTRAINT erasure_log_counter IF NOT EXISTS FOR (n:ErasureLogCounter) REQUIRE n.group_key IS UNIQUE;
CREATE INDEX erasure_receipt_group IF NOT EXISTS FOR (n:ErasureReceipt) ON (n.group_key, n.seq);
// A write expires the insights citing the rows it expires, found by what they cite.
CREATE INDEX insight_evidence_cited IF NOT EXISTS FOR (n:InsightEvidence) ON (n.group_id, n.cited_id);
CREATE INDEX insight_evidence_insight IF NOT EXISTS FOR (n:InsightEvidence) ON (n.group_id, n.insight_id);
CREATE INDEX entity_group IF NOT EXISTS FOR (n:Entity) ON (n.group_id);
CREATE INDEX entity_group_key IF NOT EXISTS FOR (n:Entity) ON (n.group_id, n.key);
CREATE INDEX entity_name IF NOT EXISTS FOR (n:Entity) ON (n.name);
CREATE INDEX entity_created_at IF NOT EXISTS FOR (n:Entity) ON (n.created_at);
CREATE INDEX episode_group IF NOT EXISTS FOR (n:Episode) ON (n.group_id);
CREATE INDEX episode_reference_time IF NOT EXISTS FOR (n:Episode) ON (n.reference_time);
CREATE INDEX episode_created_at IF NOT EXISTS FOR (n:Episode) ON (n.created_at);
// What a person said, for erasing them with their messages.
CREATE INDEX episode_speaker IF NOT EXISTS FOR (n:Episode) ON (n.group_id, n.speaker);
// Withdrawn messages only (a node without retracted_at is not in it): a search as known at K reads
// those withdrawn since K through it, never the group's messages.
CREATE INDEX episode_withdrawn IF NOT EXISTS FOR (n:Episode) ON (n.group_id, n.retracted_at);
CREATE INDEX assertion_group IF NOT EXISTS FOR (n:Assertion) ON (n.group_id);
CREATE INDEX assertion_key IF NOT EXISTS FOR (n:Assertion) ON (n.group_id, n.subject_id, n.relation);
// A write reads one key's assertions by kind and time, or of one object, and the last to arrive.
// at_key is the moment in microseconds (an undated one before every date) and object_key the
// object id ('' for an ending of whatever held): a composite entry needs every property set.
CREATE INDEX assertion_kind_at IF NOT EXISTS FOR (n:Assertion)
ON (n.group_id, n.subject_id, n.relation, n.kind, n.at_key);
CREATE INDEX assertion_object_at IF NOT EXISTS FOR (n:Assertion)
ON (n.group_id, n.subject_id, n.relation, n.object_key, n.kind, n.at_key);
CREATE INDEX assertion_arrival IF NOT EXISTS FOR (n:Assertion)
ON (n.group_id, n.subject_id, n.relation, n.created_at, n.seq);
// Un-learning reads what one episode told and what names one entity as its object.
CREATE INDEX assertion_episode IF NOT EXISTS FOR (n:Assertion) ON (n.group_id, n.episode_id);
CREATE INDEX assertion_entity_object IF NOT EXISTS FOR (n:Assertion) ON (n.group_id, n.object_id);
// One :CurrentFact node per current fact row (created with it, deleted when it expires): what a
// write reads of a key's timeline or an entity's newest facts, without walking expired versions.
// A composite entry exists only while each property is set: newest only on a row with no end,
// ends only on one with an end.
CREATE CONSTRAINT current_fact_row IF NOT EXISTS FOR (n:CurrentFact) REQUIRE n.row_id IS UNIQUE;
CREATE INDEX current_fact_key IF NOT EXISTS FOR (n:CurrentFact)
ON (n.group_id, n.subject_id, n.relation, n.key_start);
CREATE INDEX current_fact_pair IF NOT EXISTS FOR (n:CurrentFact)
ON (n.group_id, n.subject_id, n.relation, n.object_id, n.key_start);
CREATE INDEX current_fact_subject_newest IF NOT EXISTS FOR (n:CurrentFact) ON (n.group_id, n.subject_id, n.newest);
CREATE INDEX current_fact_object_newest IF NOT EXISTS FOR (n:CurrentFact) ON (n.group_id, n.object_id, n.newest);
CREATE INDEX current_fact_subject_ends IF NOT EXISTS FOR (n:CurrentFact) ON (n.group_id, n.subject_id, n.ends);
CREATE INDEX current_fact_object_ends IF NOT EXISTS FOR (n:CurrentFact) ON (n.group_id, n.object_id, n.ends);
CREATE INDEX current_fact_group IF NOT EXISTS FOR (n:CurrentFact) ON (n.group_id, n.row_id);
// The count of a group's rows valid at a moment (search's graph weight), read from index entries:
// rows started by then, less rows started and ended by then.
CREATE INDEX current_fact_start IF NOT EXISTS FOR (n:CurrentFact) ON (n.group_id, n.key_start);
CREATE INDEX current_fact_end IF NOT EXISTS FOR (n:CurrentFact) ON (n.group_id, n.ends, n.key_start);
// Entity names and messages with their group's token (search_group; see text_search_facts.cypher);
// a withdrawn message has none. Each full-text index refreshes in the background, not in the commit
// of every write (2 ms of it per index); the statements that ask one wait for the refresh first.
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (n:Entity) ON EACH [n.name_text, n.search_group]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX episode_contents IF NOT EXISTS FOR (n:Episode) ON EACH [n.content, n.search_group]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
// One vector index over every current fact row of every relation type: the vector is kept on the
// row's :CurrentFact node too (a relationship vector index covers one type only, so a search
// asked one index per type the group had written, one after another).
CREATE VECTOR INDEX current_fact_embedding IF NOT EXISTS FOR (n:CurrentFact) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS FOR (n:Episode) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
