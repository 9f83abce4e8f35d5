// The relationship types the fact full-text index covers now (none if it does not exist yet).
// scope: schema
// params:
SHOW FULLTEXT INDEXES YIELD name, labelsOrTypes
WHERE name = 'fact_text'
RETURN labelsOrTypes AS types
