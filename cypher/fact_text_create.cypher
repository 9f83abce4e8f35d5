// One full-text index over the text of every fact relationship type. A relationship full-text
// index must list its types, so when a new relation appears the store drops and recreates it
// with the wider list (then waits for it): one index keeps BM25 scores comparable across
// relations, which per-type indexes would not. It also holds each current row's group token
// (search_group), so a search asks it for one group's current rows alone. It refreshes in the
// background, as the other full-text indexes do (schema.cypher).
// scope: schema
// params:
// placeholders: types
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR ()-[r:{{types}}]-() ON EACH [r.text, r.search_group]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}}
