/**
 * Real traces rewritten so that every recorded string a repro export writes holds text that
 * would run as code if it reached the file raw: line terminators (`\n`, `\r`, U+2028, U+2029)
 * each followed by a statement that prints INJECTED, `*\/` and `/*`, a backtick and `${…}`,
 * `</script>`, a quote and a backslash. Names are rewritten consistently everywhere (span names,
 * `genkit:name`, paths, messages, tool definitions), so the rewritten trace is still a run
 * genkit can replay.
 */

/**
 * What an injection would run: the output says INJECTED, the recorded text never does. An
 * expression with a comma, so it also runs inside the array literal of recorded answers,
 * where a raw line break in a `//` comment once landed.
 */
const INJECT = 'process.stdout.write("INJ"+"ECTED"),';

/** The word every hostile string holds, to find recorded text in a generated file. */
export const HOSTILE_MARKER = 'HOSTILE';

/** Appended to every recorded text value: each line terminator starts a statement, `//` comments out the rest. */
export const HOSTILE_TEXT = ` ${HOSTILE_MARKER} */ /* \` \${process.exit(7)} </script> " \\ \n${INJECT}//\r${INJECT}//\u2028${INJECT}//\u2029${INJECT}//`;

/**
 * Appended to tool names genkit must be able to register: everything of HOSTILE_TEXT but `/`
 * (a name with a slash is not found by generate: "NOT_FOUND: Tool … not found").
 */
export const HOSTILE_NAME = ` ${HOSTILE_MARKER} * \` \${process.exit(7)} <script> " \\ \n${INJECT}\r${INJECT}\u2028${INJECT}\u2029${INJECT}`;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface OtlpSpan {
  name: string;
  attributes?: { key: string; value: { stringValue?: string } }[];
  status?: { code?: number; message?: string };
  events?: { name: string; attributes?: { key: string; value: { stringValue?: string } }[] }[];
}

interface OtlpDocument {
  description?: string;
  resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** Keys whose string values are structure genkit or Loopscope reads, not recorded text. */
const STRUCTURAL = new Set(['role', 'finishReason', 'type', '$schema', 'format', 'contentType', 'name', 'model', 'tools', 'required']);

/** Keys whose values are tool payloads or schema properties. */
const PAYLOAD_KEYS = new Set(['input', 'output', 'interrupt', 'resumed', 'replacedInput', 'pendingOutput', 'resolvedInterrupt', 'properties']);

const attributeOf = (span: OtlpSpan, key: string) => span.attributes?.find((attribute) => attribute.key === key)?.value.stringValue;

/**
 * The trace `text` (OTLP JSON), hostile. Tool names get HOSTILE_NAME (`registrable: true`) or
 * HOSTILE_TEXT, slashes included; model names, refs, texts, descriptions, inputs, outputs,
 * interrupt metadata, the messages tools threw, the schemas' property names (as keys, wherever
 * a tool's input or output holds them) and the file's description get HOSTILE_TEXT.
 */
export function hostileTrace(text: string, options: { registrable: boolean }): string {
  const document = JSON.parse(text) as OtlpDocument;
  const spans = document.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
  const names = new Map<string, string>();
  const properties = new Map<string, string>();
  for (const span of spans) {
    const subtype = attributeOf(span, 'genkit:metadata:subtype');
    const name = attributeOf(span, 'genkit:name');
    if (name && subtype === 'tool') names.set(name, name + (options.registrable ? HOSTILE_NAME : HOSTILE_TEXT));
    if (name && subtype === 'model') names.set(name, name + HOSTILE_TEXT);
    // A tool's thrown message is played back by its stub, and genkit passes it on as the
    // generate's error: rewritten wherever it appears. genkit's own messages stay as genkit
    // writes them (the repro makes genkit write them again), but for the names in them.
    const thrown = subtype === 'tool' && span.status?.code === 2 && attributeOf(span, 'genkit:metadata:interrupt') === undefined ? span.status.message : undefined;
    if (thrown) names.set(thrown, thrown + HOSTILE_TEXT);
    // Property names of the tool schemas the model was offered: renamed as keys everywhere.
    const input = attributeOf(span, 'genkit:input');
    const tools = subtype === 'model' && input ? (JSON.parse(input) as { tools?: { inputSchema?: Json; outputSchema?: Json }[] }).tools : undefined;
    for (const tool of tools ?? []) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        const keys = schema && typeof schema === 'object' && !Array.isArray(schema) && schema.properties && typeof schema.properties === 'object' ? Object.keys(schema.properties) : [];
        for (const key of keys) if (!STRUCTURAL.has(key)) properties.set(key, key + HOSTILE_TEXT);
      }
    }
  }
  // Longest first, so a name inside another name is not rewritten twice.
  const byLength = [...names].sort((a, b) => b[0].length - a[0].length);
  const renamed = (value: string) => byLength.reduce((result, [from, to]) => result.split(from).join(to), value);

  /** `inPayload`: inside a tool's input, output or metadata, or a schema's `properties`, where keys are recorded names. */
  const walk = ({ value, key, inPayload }: { value: Json; key: string | undefined; inPayload: boolean }): Json => {
    if (typeof value === 'string') {
      if (key === 'required') return properties.get(value) ?? value;
      return STRUCTURAL.has(key ?? '') ? renamed(value) : renamed(value) + HOSTILE_TEXT;
    }
    // Array elements inherit their array's key (`tools: ["/tool/x"]`, `required: ["to"]`).
    if (Array.isArray(value)) return value.map((item) => walk({ value: item, key, inPayload }));
    if (value === null || typeof value !== 'object') return value;
    const out: { [key: string]: Json } = {};
    for (const [name, inner] of Object.entries(value)) {
      out[inPayload ? (properties.get(name) ?? name) : name] = walk({ value: inner, key: name, inPayload: inPayload || PAYLOAD_KEYS.has(name) });
    }
    return out;
  };

  for (const span of spans) {
    const isTool = attributeOf(span, 'genkit:metadata:subtype') === 'tool';
    span.name = renamed(span.name);
    for (const attribute of span.attributes ?? []) {
      const raw = attribute.value.stringValue;
      if (raw === undefined) continue;
      if (['genkit:input', 'genkit:output', 'genkit:metadata:interrupt', 'genkit:metadata:resumed'].includes(attribute.key)) {
        const payload = attribute.key !== 'genkit:input' && attribute.key !== 'genkit:output' ? true : isTool;
        attribute.value.stringValue = JSON.stringify(walk({ value: JSON.parse(raw) as Json, key: undefined, inPayload: payload }));
      } else attribute.value.stringValue = renamed(raw);
    }
    if (span.status?.message !== undefined) span.status.message = renamed(span.status.message);
    for (const event of span.events ?? []) {
      for (const attribute of event.attributes ?? []) {
        if (attribute.value.stringValue !== undefined) attribute.value.stringValue = renamed(attribute.value.stringValue);
      }
    }
  }
  if (document.description !== undefined) document.description += HOSTILE_TEXT;
  return JSON.stringify(document);
}
