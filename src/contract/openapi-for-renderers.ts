/**
 * Two things zod-openapi writes that say nothing to a reader but trip the renderers, rewritten in
 * the generated document with their meaning unchanged:
 *
 * - zod's `.int()` bounds every integer at ±Number.MAX_SAFE_INTEGER in JSON Schema, which Scalar on
 *   /docs/ then shows as "min -9007199254740991". A bound that is only JavaScript's own limit is
 *   dropped; real bounds (`.min()`, `.max()`, `.nonnegative()`) stay.
 * - A nullable value is often written `anyOf: [X, {type: 'null'}]` with no `type` of its own.
 *   Scalar's document check (its workspace store) accepts such a schema only after a coercion pass
 *   of its own, which misses a component first reached through a `$ref` of an earlier one, and it
 *   logs "document validation errors" for it (CarbonDisclosure, SourceEntry, SourceFile, ChangeItem,
 *   ChangeCause). An inline X becomes `type: [T, 'null']` (the form zod-openapi already uses for
 *   some nullables; openapi-typescript reads it as `T | null`); a `$ref` keeps its `anyOf` and gets
 *   the type its component implies. Unions of two non-null shapes are left as they are: a `type`
 *   beside them would widen the generated client types (`unknown[]`).
 */
type Json = Record<string, any>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNull = (v: unknown) => isObject(v) && v.type === 'null' && Object.keys(v).length === 1;

export function tidyForRenderers(doc: Json): void {
  const components: Json = doc.components?.schemas ?? {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    for (const value of Object.values(node)) visit(value);
    if (node.type === 'integer') {
      if (node.minimum === -Number.MAX_SAFE_INTEGER) delete node.minimum;
      if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
    }
    typeNullable(node, components);
  };
  visit(doc.components);
  visit(doc.paths);
}

/** `anyOf: [X, {type: 'null'}]` without a type: X's keywords with its type made nullable, or, for a `$ref`, the type beside it. */
function typeNullable(node: Json, components: Json): void {
  const union = node.anyOf;
  if (!Array.isArray(union) || union.length !== 2 || node.type !== undefined) return;
  const other = isNull(union[0]) ? union[1] : isNull(union[1]) ? union[0] : undefined;
  if (!isObject(other)) return;
  if (typeof other.$ref === 'string') {
    const type = components[other.$ref.split('/').pop()!]?.type;
    if (typeof type === 'string') node.type = [type, 'null'];
    return;
  }
  if (typeof other.type !== 'string' || other.anyOf || other.oneOf || other.allOf) return;
  // The union's own keywords (its description) over its branch's.
  const { anyOf: _union, ...own } = node;
  const { type, ...shape } = other;
  for (const key of Object.keys(node)) delete node[key];
  Object.assign(node, { type: [type, 'null'] }, shape, own);
  if (Array.isArray(node.enum)) node.enum = [...node.enum, null];
  if ('const' in node) {
    node.enum = [node.const, null];
    delete node.const;
  }
}
