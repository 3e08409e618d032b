/** An entity's property name as its column's name (the naming strategy's rule). */
export function columnOf(property: string): string {
  return property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A select list that reads `properties` (an entity's, by property name) under their property
 * names, so that `manager.create(Entity, row)` makes the entity of a row: each column of
 * `alias` (or of the one table) as `"column" AS "property"`.
 */
export function selectColumns(properties: readonly string[], alias?: string): string {
  const of = alias === undefined ? '' : `${alias}.`;
  return properties.map((p) => `${of}"${columnOf(p)}" AS "${p}"`).join(', ');
}
