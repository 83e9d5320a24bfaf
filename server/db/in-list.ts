/**
 * A list of values as one bound parameter, as `inList(values)` (./sql.ts) writes it after IN or NOT IN. One cached
 * statement whatever the number of values, where an IN list of placeholders would prepare a new
 * one per length. It is SQLite's form (json_each); the PostgreSQL adapter gives this one place its own.
 */
export const IN_LIST = `(SELECT "value" FROM json_each(?))`;
export const jsonList = (values: Iterable<number | string>): string => JSON.stringify([...values]);
