// A small JSON Schema (2020-12) checker for the keywords these schemas use. No npm here, and the
// point is to catch drift between the schemas and the daemon, not to be a general validator.
const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
const isType = (v, t) => t === typeOf(v) || (t === 'number' && typeof v === 'number');

export function validate(schema, value, path = '$', root = schema) {
  if (schema.$ref !== undefined) {
    // Local references only (`#/$defs/name`): the schemas here are single files.
    const target = schema.$ref.replace(/^#\//, '').split('/').reduce((node, key) => node?.[key], root);
    if (!target) return [`${path}: unresolved $ref ${schema.$ref}`];
    return validate(target, value, path, root);
  }
  const errors = [];
  const fail = (message) => errors.push(`${path}: ${message}`);
  if (schema.type !== undefined) {
    const types = [].concat(schema.type);
    if (!types.some((t) => isType(value, t))) fail(`expected ${types.join('|')}, got ${typeOf(value)}`);
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) fail(`expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) fail(`not one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === 'string') {
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) fail(`does not match ${schema.pattern}`);
    if (schema.minLength !== undefined && value.length < schema.minLength) fail('too short');
  }
  if (typeof value === 'number' && schema.minimum !== undefined && value < schema.minimum) fail(`below ${schema.minimum}`);
  if (typeof value === 'number' && schema.maximum !== undefined && value > schema.maximum) fail(`above ${schema.maximum}`);
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) fail(`fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail(`more than ${schema.maxItems} items`);
    (schema.prefixItems ?? []).forEach((s, i) => { if (i < value.length) errors.push(...validate(s, value[i], `${path}[${i}]`, root)); });
    if (schema.items) value.forEach((v, i) => errors.push(...validate(schema.items, v, `${path}[${i}]`, root)));
  }
  if (typeOf(value) === 'object') {
    for (const key of schema.required ?? []) if (!(key in value)) fail(`missing ${key}`);
    if (schema.maxProperties !== undefined && Object.keys(value).length > schema.maxProperties) fail('too many members');
    for (const [key, v] of Object.entries(value)) {
      const pattern = Object.keys(schema.patternProperties ?? {}).find((p) => new RegExp(p, 'u').test(key));
      if (schema.properties?.[key]) errors.push(...validate(schema.properties[key], v, `${path}.${key}`, root));
      else if (pattern !== undefined) errors.push(...validate(schema.patternProperties[pattern], v, `${path}.${key}`, root));
      else if (schema.additionalProperties === false) fail(`unexpected member ${key}`);
      else if (typeof schema.additionalProperties === 'object') errors.push(...validate(schema.additionalProperties, v, `${path}.${key}`, root));
    }
  }
  if (schema.oneOf) {
    const passing = schema.oneOf.filter((s) => validate(s, value, path, root).length === 0).length;
    if (passing !== 1) fail(`matches ${passing} of oneOf, expected exactly 1`);
  }
  return errors;
}
