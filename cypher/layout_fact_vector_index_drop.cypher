// Upgrade (layout 3): drop one relation type's vector index of fact rows.
// scope: schema
// params:
// placeholders: rel
DROP INDEX fact_embedding_{{rel}} IF EXISTS
