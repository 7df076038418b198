/**
 * The reflection API's `GET /api/actions` (genkit JS, Go and Python alike): an object keyed by
 * action key (`/flow/planTrip`, `/tool/bookTrip`, `/model/demo/trip-model`, `/util/generate`,
 * `/prompt/…`) with `{key, name, description?, metadata?, inputSchema?, outputSchema?}`. The
 * type is the key's first segment: genkit JS 1.42 sets `metadata.type` on tools only.
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
});

/** The action types a person runs or reads first, in the order the UI lists them. */
export const ACTION_TYPE_ORDER = ['flow', 'tool', 'model', 'prompt', 'executable-prompt', 'util'];

/** The action type of a key: `/flow/x` → `flow`. */
export function actionTypeOf(key: string): string {
  return key.split('/')[1] ?? '';
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
    const { name, description, inputSchema, outputSchema } = parsed.data;
    const type = actionTypeOf(key);
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
