/**
 * A run form from an action's JSON input schema (as genkit's reflection API gives it: zod →
 * JSON schema, possibly with `$defs` / `definitions` and `$ref`): the field tree the page draws,
 * a first value from defaults, and the check that names the field a value is missing or wrong at.
 * Pure; the page renders it (components/schema-form.tsx).
 */
export type FormField =
  | { kind: 'object'; fields: { name: string; required: boolean; field: FormField }[]; description?: string }
  | { kind: 'array'; item: FormField; description?: string }
  | { kind: 'enum'; options: string[]; description?: string }
  | { kind: 'string' | 'number' | 'integer' | 'boolean'; description?: string }
  | { kind: 'json'; description?: string };

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

function resolveRef(options: { schema: Schema; root: Schema; seen: Set<string> }): Schema {
  const { schema, root, seen } = options;
  const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
  if (!ref?.startsWith('#/') || seen.has(ref)) return schema;
  seen.add(ref);
  let target: unknown = root;
  for (const segment of ref.slice(2).split('/')) target = isSchema(target) ? target[segment.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isSchema(target) ? resolveRef({ schema: target, root, seen }) : schema;
}

/** The field tree of a schema; what it cannot draw (anyOf, no type) becomes a JSON text field. */
export function formFieldOf(schema: unknown, within: { root: unknown; depth: number } = { root: schema, depth: 0 }): FormField {
  const { root, depth } = within;
  if (!isSchema(schema) || depth > 12) return { kind: 'json' };
  const resolved = resolveRef({ schema, root: isSchema(root) ? root : {}, seen: new Set() });
  const description = typeof resolved.description === 'string' ? resolved.description : undefined;
  const extra = description ? { description } : {};
  if (Array.isArray(resolved.enum) && resolved.enum.every((value) => typeof value === 'string')) return { kind: 'enum', options: resolved.enum as string[], ...extra };
  const type = Array.isArray(resolved.type) ? resolved.type.find((candidate) => candidate !== 'null') : resolved.type;
  if (type === 'object' && isSchema(resolved.properties)) {
    const required = new Set(Array.isArray(resolved.required) ? (resolved.required as string[]) : []);
    return { kind: 'object', fields: Object.entries(resolved.properties).map(([name, child]) => ({ name, required: required.has(name), field: formFieldOf(child, { root, depth: depth + 1 }) })), ...extra };
  }
  if (type === 'array') return { kind: 'array', item: formFieldOf(resolved.items, { root, depth: depth + 1 }), ...extra };
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return { kind: type, ...extra };
  return { kind: 'json', ...extra };
}

/** A field's draft: what the inputs hold (text for scalars and JSON, lists for arrays). */
export type FormDraft = string | boolean | FormDraft[] | { [name: string]: FormDraft };

export function emptyDraft(field: FormField): FormDraft {
  if (field.kind === 'object') return Object.fromEntries(field.fields.map((child) => [child.name, emptyDraft(child.field)]));
  if (field.kind === 'array') return [];
  if (field.kind === 'boolean') return false;
  if (field.kind === 'enum') return '';
  return '';
}

export interface FormProblem {
  path: string;
  message: string;
}

/**
 * The JSON value of a draft, or the problems, each naming its field (`travelers[0].age`).
 * An empty optional field is left out (genkit then applies its schema default).
 */
export function draftValue(options: { field: FormField; draft: FormDraft; path?: string }): { value?: unknown; problems: FormProblem[] } {
  const { field, draft } = options;
  const path = options.path ?? '';
  const problems: FormProblem[] = [];
  const at = path || '(input)';
  if (field.kind === 'object') {
    const record = (typeof draft === 'object' && !Array.isArray(draft) ? draft : {}) as Record<string, FormDraft>;
    const value: Record<string, unknown> = {};
    for (const child of field.fields) {
      const childPath = path ? `${path}.${child.name}` : child.name;
      const childDraft = record[child.name] ?? emptyDraft(child.field);
      if (childDraft === '' && child.field.kind !== 'string') {
        if (child.required) problems.push({ path: childPath, message: `${childPath} is required.` });
        continue;
      }
      const result = draftValue({ field: child.field, draft: childDraft, path: childPath });
      problems.push(...result.problems);
      if (result.value !== undefined) value[child.name] = result.value;
      else if (child.required && childDraft === '') problems.push({ path: childPath, message: `${childPath} is required.` });
    }
    return { value, problems };
  }
  if (field.kind === 'array') {
    const items = Array.isArray(draft) ? draft : [];
    const value = items.map((item, index) => {
      const result = draftValue({ field: field.item, draft: item, path: `${path}[${index}]` });
      problems.push(...result.problems);
      return result.value;
    });
    return { value, problems };
  }
  if (field.kind === 'boolean') return { value: draft === true, problems };
  const text = typeof draft === 'string' ? draft : '';
  if (field.kind === 'string') return { value: text === '' ? undefined : text, problems };
  if (field.kind === 'enum') return text === '' ? { problems } : { value: text, problems };
  if (text.trim() === '') return { problems };
  if (field.kind === 'number' || field.kind === 'integer') {
    const number = Number(text);
    if (!Number.isFinite(number)) return { problems: [{ path: at, message: `${at} must be a number, got "${text}".` }] };
    if (field.kind === 'integer' && !Number.isInteger(number)) return { problems: [{ path: at, message: `${at} must be a whole number, got ${text}.` }] };
    return { value: number, problems };
  }
  try {
    return { value: JSON.parse(text), problems };
  } catch {
    return { problems: [{ path: at, message: `${at} is not valid JSON.` }] };
  }
}
