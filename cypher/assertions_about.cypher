// The assertions about (subject, relation) for several subjects at once: the timelines of message
// keys and the topics of messages a search found (temporal_graph/core/message_links.py).
// params: group_id, subject_ids, relation
UNWIND $subject_ids AS subject_id
MATCH (a:Assertion {group_id: $group_id, subject_id: subject_id, relation: $relation})
// include: assertion_return
