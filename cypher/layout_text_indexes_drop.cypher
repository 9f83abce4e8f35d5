// Upgrade (layout 4): the name and message full-text indexes an earlier layout made, without the
// group token (schema.cypher makes them again with it).
// scope: schema
// params:
DROP INDEX entity_names IF EXISTS;
DROP INDEX episode_contents IF EXISTS
