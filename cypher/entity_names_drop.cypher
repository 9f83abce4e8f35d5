// Upgrade (layout 4): the entity name index an earlier layout made, without the group token
// (schema.cypher makes it again with it).
// scope: schema
// params:
DROP INDEX entity_names IF EXISTS
