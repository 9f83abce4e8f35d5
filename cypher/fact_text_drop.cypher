// Step 1 of widening the fact full-text index to a new relation type (see fact_text_create).
// scope: schema
// params:
DROP INDEX fact_text IF EXISTS
