// Upgrade (layout 3): the per-relation-type vector indexes of fact rows an earlier layout made
// (the one index over :CurrentFact nodes replaces them).
// scope: schema
// params:
SHOW VECTOR INDEXES YIELD name, entityType
WHERE entityType = 'RELATIONSHIP' AND name STARTS WITH 'fact_embedding_'
RETURN name
