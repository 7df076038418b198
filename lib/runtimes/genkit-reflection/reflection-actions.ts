/**
 * The reflection API's `GET /api/actions` (genkit JS, Go and Python alike): an object keyed by
 * action key (`/flow/planTrip`, `/tool/bookTrip`, `/model/demo/trip-model`, `/util/generate`,
 * `/prompt/…`) with `{key, name, description?, metadata?, inputSchema?, outputSchema?}`. The
 * type is the key's first segment: genkit JS 1.42 sets `metadata.type` on tools only, genkit
 * Python 0.12 sends no `type` at all, genkit Go 1.12 sends `tool.v2` for its tools.
 *
 * Tools: genkit Go and Python list each tool once, as `/tool.v2/<name>` (measured,
 * docs/attach-runtimes.md), whose `outputSchema` is the multipart envelope `{content, metadata,
 * output}`; the tool's own output schema is `metadata.originalOutputSchema`. genkit JS registers
 * a plain tool twice (`/tool/<name>`, and a `/tool.v2/<name>` wrapper). So `tool.v2` is listed as
 * type `tool`, with the tool's own output schema, and only when no `/tool/<name>` is listed.
 * Schemas are kept as sent (Python's pydantic `$defs` / `$ref` are resolved by the form, input-form.ts).
 */
import { z } from 'zod';
import { JsonValueSchema } from '../../contract/json-value';
import type { RuntimeAction } from '../../contract/runtimes';

const ReflectionActionSchema = z.object({
  key: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  inputSchema: JsonValueSchema.optional(),
  outputSchema: JsonValueSchema.optional(),
  // Read only for a tool.v2's `originalOutputSchema`; any other shape is no reason to drop the action.
  metadata: z.unknown().optional(),
});

/** The action types a person runs or reads first, in the order the UI lists them. */
export const ACTION_TYPE_ORDER = ['flow', 'tool', 'model', 'prompt', 'executable-prompt', 'util'];

/** The action type of a key: `/flow/x` → `flow`. */
export function actionTypeOf(key: string): string {
  const type = key.split('/')[1] ?? '';
  // genkit Go and Python list their tools only as `/tool.v2/…`; they run, and are named, as tools.
  return type === 'tool.v2' ? 'tool' : type;
}

/** A tool.v2's own output schema (`metadata.originalOutputSchema`, genkit Go and Python), if it is JSON. */
function originalOutputSchemaOf(metadata: unknown): unknown {
  if (typeof metadata !== 'object' || metadata === null || !('originalOutputSchema' in metadata)) return undefined;
  const parsed = JsonValueSchema.safeParse(metadata.originalOutputSchema);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The actions of one runtime, sorted by type (flows, tools, models, prompts, util, the rest)
 * then key; entries that are not action descriptions are left out, not fatal.
 */
export function readReflectionActions(body: unknown): RuntimeAction[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('the reflection API did not answer /api/actions with an object');
  const actions: RuntimeAction[] = [];
  for (const [key, value] of Object.entries(body)) {
    const parsed = ReflectionActionSchema.safeParse(value);
    if (!parsed.success || !key.startsWith('/')) continue;
    // genkit JS's `/tool.v2/` wrapper of a tool it also lists as `/tool/`.
    if (key.startsWith('/tool.v2/') && Object.hasOwn(body, `/tool/${key.slice('/tool.v2/'.length)}`)) continue;
    const { name, description, inputSchema, metadata } = parsed.data;
    const type = actionTypeOf(key);
    const outputSchema = (key.startsWith('/tool.v2/') ? originalOutputSchemaOf(metadata) : undefined) ?? parsed.data.outputSchema;
    actions.push({
      key,
      name: name ?? key.split('/').slice(2).join('/'),
      type,
      ...(description ? { description } : {}),
      ...(inputSchema !== undefined ? { inputSchema } : {}),
      ...(outputSchema !== undefined ? { outputSchema } : {}),
    });
  }
  const rank = (type: string) => (ACTION_TYPE_ORDER.includes(type) ? ACTION_TYPE_ORDER.indexOf(type) : ACTION_TYPE_ORDER.length);
  return actions.sort((a, b) => rank(a.type) - rank(b.type) || a.key.localeCompare(b.key));
}

/**
 * The listed action a request names: its exact key, or a name that one flow / tool / model /
 * prompt has (`planTrip` → `/flow/planTrip`). Undefined when none or several match.
 */
export function findAction(actions: readonly RuntimeAction[], named: string): RuntimeAction | undefined {
  const exact = actions.find((action) => action.key === named);
  if (exact) return exact;
  const byName = actions.filter((action) => action.name === named && ACTION_TYPE_ORDER.includes(action.type));
  return byName.length === 1 ? byName[0] : undefined;
}
