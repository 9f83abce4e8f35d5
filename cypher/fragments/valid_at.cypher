// Valid time: the rows true at $valid_time, every row when it is null. Intervals are half-open,
// [valid_at, invalid_at): a missing valid_at means "since forever", a missing invalid_at "still".
// Written over the row variable r; `// include: valid_at(x)` puts x in its place.
// variable: r
// params: valid_time
  AND ($valid_time IS NULL
       OR ((r.valid_at IS NULL OR r.valid_at <= $valid_time)
           AND (r.invalid_at IS NULL OR r.invalid_at > $valid_time)))
