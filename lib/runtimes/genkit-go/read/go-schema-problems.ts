/**
 * Every way a value breaks a JSON schema, in genkit Go's own words. genkit Go 1.12.0 validates a
 * response part against a tool's output schema, and a tool's input against its input schema,
 * with gojsonschema v1.2.0 (internal/base/validation.go) and lists each problem as
 * `- <field>: <description>` under `data did not match expected schema:` — field `(root)` or a
 * dotted path (`flight.date`, `items.0`), descriptions from gojsonschema's default locale
 * (`Additional property status is not allowed`, `answer is required`, `Invalid type. Expected:
 * string, given: integer`). ajv finds the problems (allErrors); this says them as gojsonschema
 * does, as measured against the real module (resume-verdicts.capture.test.ts).
 *
 * Where the two validators differ, gojsonschema's behaviour is followed: a value of the wrong
 * type gets that one problem and nothing else of its schema; `anyOf` / `oneOf` get their one line
 * (gojsonschema adds the problems of the closest branch, which ajv does not choose — those lines
 * are left out; so is the line gojsonschema adds for a failed `allOf`). gojsonschema lists an object's extra properties in Go's map order, which varies
 * from run to run: the lines here follow the value's own order. `format` is not checked (ajv
 * has no formats here; gojsonschema checks them).
 */
import Ajv, { type ErrorObject } from 'ajv';

/** The header genkit Go puts above the problem lines (base.ValidateRaw). */
export const GO_SCHEMA_MISMATCH = 'data did not match expected schema:';

/** gojsonschema's name for a JSON value's type: a whole number is `integer`. */
function goTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** gojsonschema's field: `(root)`, else the path below it joined by dots. */
function goField(instancePath: string): string {
  if (instancePath === '') return '(root)';
  return instancePath
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** A schema number as gojsonschema prints it (a big.Float's `%v`: 10 significant digits, exponent outside 1e-4…1e10). */
function goNumber(value: unknown): string {
  const number = Number(value);
  if (!Number.isFinite(number) || number === 0) return String(number);
  const exponent = Math.floor(Math.log10(Math.abs(number)));
  const rounded = Number(number.toPrecision(10));
  return exponent < -4 || exponent >= 10 ? rounded.toExponential() : String(rounded);
}

/** One ajv problem as gojsonschema's description (ajv's own words for a keyword gojsonschema does not have). */
function goDescription(error: ErrorObject, field: string): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const expected = Array.isArray(params.type) ? `[${params.type.join(',')}]` : String(params.type).includes(',') ? `[${String(params.type)}]` : String(params.type);
      return `Invalid type. Expected: ${expected}, given: ${goTypeName(error.data)}`;
    }
    case 'required':
      return `${String(params.missingProperty)} is required`;
    case 'additionalProperties':
      return `Additional property ${String(params.additionalProperty)} is not allowed`;
    case 'enum':
      return `${field} must be one of the following: ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `${field} does not match: ${JSON.stringify(params.allowedValue)}`;
    case 'minLength':
      return `String length must be greater than or equal to ${goNumber(params.limit)}`;
    case 'maxLength':
      return `String length must be less than or equal to ${goNumber(params.limit)}`;
    case 'pattern':
      return `Does not match pattern '${String(params.pattern)}'`;
    case 'minimum':
      return `Must be greater than or equal to ${goNumber(params.limit)}`;
    case 'exclusiveMinimum':
      return `Must be greater than ${goNumber(params.limit)}`;
    case 'maximum':
      return `Must be less than or equal to ${goNumber(params.limit)}`;
    case 'exclusiveMaximum':
      return `Must be less than ${goNumber(params.limit)}`;
    case 'multipleOf':
      return `Must be a multiple of ${goNumber(params.multipleOf)}`;
    case 'minItems':
      return `Array must have at least ${goNumber(params.limit)} items`;
    case 'maxItems':
      return `Array must have at most ${goNumber(params.limit)} items`;
    case 'additionalItems':
      return 'No additional items allowed on array';
    case 'uniqueItems':
      return `array items[${Math.min(Number(params.i), Number(params.j))},${Math.max(Number(params.i), Number(params.j))}] must be unique`;
    case 'minProperties':
      return `Must have at least ${goNumber(params.limit)} properties`;
    case 'maxProperties':
      return `Must have at most ${goNumber(params.limit)} properties`;
    case 'dependencies':
    case 'dependentRequired':
      return `Has a dependency on ${String(params.missingProperty)}`;
    case 'anyOf':
      return 'Must validate at least one schema (anyOf)';
    case 'oneOf':
      return 'Must validate one and only one schema (oneOf)';
    case 'not':
      return 'Must not validate the schema (not)';
    case 'if':
      return params.failingKeyword === 'else' ? 'Must validate "else" as "if" was not valid' : 'Must validate "then" as "if" was valid';
    case 'contains':
      return 'At least one of the items must match';
    case 'false schema':
      return 'False always fails validation';
    default:
      return error.message ?? 'is invalid';
  }
}

/** The schema node an error's keyword sits in (`#/properties/a/type` → `#/properties/a`). */
const nodeOf = (schemaPath: string) => schemaPath.slice(0, schemaPath.lastIndexOf('/'));

/** One problem as gojsonschema says it, and the value it is about. */
export interface GoSchemaProblem {
  /** `(root)`, or the dotted path of the value (`flight.date`, `content.0.text`). */
  field: string;
  description: string;
  /** The value the problem is about. */
  value: unknown;
}

/** A problem as genkit Go lists it: `<field>: <description>`. */
export const goProblemLine = (problem: GoSchemaProblem) => `${problem.field}: ${problem.description}`;

/**
 * The problems gojsonschema finds, or an empty list when the value keeps the schema (or there is
 * no schema). Runs on the server (ajv compiles code).
 * @param options.asJsonUnmarshal only what json.Unmarshal into the Go type the schema describes
 *   would fail on: a wrong type — not a missing field (left at its zero value), an unknown one
 *   (ignored) or a null (a no-op)
 */
export function goSchemaProblems(options: { schema: unknown; value: unknown; asJsonUnmarshal?: boolean }): GoSchemaProblem[] {
  const { schema, value } = options;
  if (!schema || typeof schema !== 'object') return [];
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  const validate = new Ajv({ allErrors: true, verbose: true, strict: false, validateFormats: false }).compile(rest);
  if (validate(value)) return [];
  const errors = (validate.errors ?? []).filter((error) => !options.asJsonUnmarshal || (error.keyword === 'type' && error.data !== null));
  // gojsonschema stops at a wrong type: nothing else of that schema node is said of the value.
  const wrongType = errors.filter((error) => error.keyword === 'type').map((error) => ({ at: error.instancePath, node: nodeOf(error.schemaPath) }));
  // …and names only the one line of an anyOf / oneOf (their branches' problems are not ajv's to choose).
  const composite = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf').map((error) => error.schemaPath);
  const problems = errors
    .filter((error) => !composite.some((path) => error.schemaPath.startsWith(`${path}/`)))
    .filter((error) => !wrongType.some((type) => error.keyword !== 'type' && error.schemaPath.startsWith(`${type.node}/`) && (error.instancePath === type.at || error.instancePath.startsWith(`${type.at}/`))))
    .map((error) => {
      const field = goField(error.instancePath);
      return { field, description: goDescription(error, field), value: error.data };
    });
  const seen = new Set<string>();
  return problems.filter((problem) => !seen.has(goProblemLine(problem)) && Boolean(seen.add(goProblemLine(problem))));
}

/** genkit Go's whole message for the problems: the header and a `- ` line each. */
export function goSchemaMismatch(problems: readonly GoSchemaProblem[]): string {
  return [GO_SCHEMA_MISMATCH, ...problems.map((problem) => `- ${goProblemLine(problem)}`)].join('\n');
}
