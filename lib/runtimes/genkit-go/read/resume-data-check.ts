/**
 * What genkit Go 1.12.0 does with a restart's resume data once the tool runs: a stable tool
 * (genkit.DefineTool, `multipart: false` in the trace) gets it as ToolContext.Resumed, a map —
 * nothing is converted; a typed tool (genkit/exp DefineInterruptibleTool) gets it converted to its
 * Go resume type by json.Unmarshal (base.MapToStruct), and a field of the wrong type fails the
 * tool: `tool "bookFlight" failed: error calling tool bookFlight: aix.wrapInterruptibleFunc:
 * failed to convert resumed data: json: cannot unmarshal string into Go struct field
 * Confirmation.confirmed of type bool` (status INTERNAL; measured in
 * resume-verdicts.capture.test.ts). genkit Go records no resume type in a trace or a tool's
 * definition, so the data is checked only when the type is known — from the Go runner, which
 * describes its tools' resume types — and is otherwise unchecked, saying why.
 */
import type { ResumeIssue } from '../../../contract/resume-answers';
import type { LocalToolFacts, RecordedToolDefinition } from '../../../loop/resume-model';
import { goSchemaProblems, goProblemLine } from './go-schema-problems';
import { GENKIT_GO_VERSION } from './known-bugs';

const CONVERT_FAILED = 'aix.wrapInterruptibleFunc: failed to convert resumed data';

/** encoding/json's name for the kind of a JSON value it cannot unmarshal (`cannot unmarshal string …`). */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/**
 * The issue the resume data of the restart that runs `request` raises, if any: an error when it
 * does not fit the tool's known Go resume type, unchecked when the type is not known and the
 * tool may be typed.
 * @param options.data the resume data, an object with at least one field (none converts to any type's zero value)
 * @param options.known what the Go runner says of the tool (undefined: it says nothing)
 * @param options.definition the tool's definition as the trace recorded it
 */
export function resumeDataIssue(options: { request: string; tool: string; data: Record<string, unknown>; known?: LocalToolFacts; definition?: RecordedToolDefinition }): ResumeIssue | undefined {
  const { request, tool, data, known, definition } = options;
  if (known?.resumeSchema) {
    const problems = goSchemaProblems({ schema: known.resumeSchema, value: data, asJsonUnmarshal: true });
    if (problems.length === 0) return undefined;
    // encoding/json stops at the first field of the data that does not fit.
    const order = Object.keys(data);
    const first = [...problems].sort((a, b) => order.indexOf(a.field.split('.')[0]) - order.indexOf(b.field.split('.')[0]))[0];
    return {
      code: 'INTERNAL',
      request,
      message: `tool "${tool}" failed: error calling tool ${tool}: ${CONVERT_FAILED}: json: cannot unmarshal ${jsonKind(first.value)} into Go struct field … — the resume data of ${request} does not fit its Go resume type ${known.resumeType ?? ''} (${problems.map(goProblemLine).join('; ')}), and genkit Go converts it with json.Unmarshal before the tool runs.`,
    };
  }
  // The runner knows the tool and it has no resume type, or the trace says it is a stable tool: the data is a map it reads as it likes.
  if (known || definition?.metadata?.multipart === false) return undefined;
  const why = definition
    ? `${tool} is recorded as a multipart tool (a typed tool of genkit/exp, or a multipart one), and ${GENKIT_GO_VERSION} records no resume type`
    : `the trace does not record ${tool}'s definition`;
  return {
    code: 'UNCHECKED',
    request,
    message: `The resume data of ${request} is unchecked: ${why}. If ${tool} is a typed tool, genkit Go converts the data to its Go resume type with json.Unmarshal and a field of the wrong type fails the tool ("${CONVERT_FAILED}: json: cannot unmarshal …"); Loopscope knows the resume types of the Go runner's tools (tools/go/) only.`,
  };
}
