// Schema of one fact relationship type, created the first time a relation is written
// (relationship constraints and indexes cover exactly one type). Idempotent; split at ';'.
// Needs Neo4j 5.7+ (relationship uniqueness); the store as a whole needs 5.26+ (CALL () { }
// subqueries, dynamic types and labels). Fact vectors are indexed on :CurrentFact (schema.cypher).
// scope: schema
// params:
// placeholders: rel
CREATE CONSTRAINT fact_row_id_{{rel}} IF NOT EXISTS FOR ()-[r:{{rel}}]-() REQUIRE r.id IS UNIQUE;
CREATE INDEX fact_group_{{rel}} IF NOT EXISTS FOR ()-[r:{{rel}}]-() ON (r.group_id);
CREATE INDEX fact_fact_id_{{rel}} IF NOT EXISTS FOR ()-[r:{{rel}}]-() ON (r.fact_id);
CREATE INDEX fact_valid_at_{{rel}} IF NOT EXISTS FOR ()-[r:{{rel}}]-() ON (r.valid_at);
CREATE INDEX fact_invalid_at_{{rel}} IF NOT EXISTS FOR ()-[r:{{rel}}]-() ON (r.invalid_at);
CREATE INDEX fact_created_at_{{rel}} IF NOT EXISTS FOR ()-[r:{{rel}}]-() ON (r.created_at);
CREATE INDEX fact_expired_at_{{rel}} IF NOT EXISTS FOR ()-[r:{{rel}}]-() ON (r.expired_at);
