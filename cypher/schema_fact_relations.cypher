// Relation types whose schema is already in place (seeds the store's cache on connect).
// scope: schema
// params:
SHOW CONSTRAINTS YIELD name, labelsOrTypes
WHERE name STARTS WITH 'fact_row_id_'
RETURN labelsOrTypes[0] AS relation
