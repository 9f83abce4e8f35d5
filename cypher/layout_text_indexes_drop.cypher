// Upgrade (layouts 4 and 6): the name and message full-text indexes an earlier layout made, without
// the group token or refreshed in each commit (schema.cypher makes them again as this layout does).
// scope: schema
// params:
DROP INDEX entity_names IF EXISTS;
DROP INDEX episode_contents IF EXISTS
