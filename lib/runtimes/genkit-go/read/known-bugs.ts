/**
 * What genkit Go gets wrong in its tool loop, as measured on the version go/runner pins
 * (lib/runtimes/genkit-go/read/__fixtures__, go-scenarios.capture.test.ts), in the words the graph
 * and the resume checks show.
 */
import type { BugNotes } from '../../genkit-js/read/read-generate';

export const GENKIT_GO_VERSION = 'genkit Go 1.12.0';

export const GENKIT_GO_BUGS = {
  /** RestartOptions.ReplaceInput: the tool runs with the new input and the resume records replacedInput, but the history keeps the old input (genkit JS 1.42's bug 2, in Go too). */
  replaceInputKeepsHistory: (tool: string) =>
    `${GENKIT_GO_VERSION}: the restart of ${tool} runs it with the new input (RestartOptions.ReplaceInput, recorded as replacedInput), but the history the model sees keeps the original input — as genkit JS 1.42's bug 2.`,
  /** A typed tool (genkit/exp) looked up by name is the registry's multipart action: the model is offered the MultipartToolResponse envelope as its output schema, and a response part is checked against it. */
  typedToolEnvelope: (tool: string) =>
    `${GENKIT_GO_VERSION}: ${tool} is a typed tool (genkit/exp); the generate looks it up as its multipart action, so the model is offered the MultipartToolResponse envelope ({output, content, metadata}) as its output schema and a response part is checked against that envelope, not against the tool's output type`,
  /** …and the envelope a response part must be is what the model gets as the tool's output: genkit Go does not unwrap it. */
  envelopeSeenByModel: (tool: string) =>
    `${GENKIT_GO_VERSION} takes this response part to ${tool} as it is, envelope and all: the model sees {"output": …} as the tool's output, not the value inside it (${tool} is a typed tool, whose response must be the MultipartToolResponse envelope, and genkit Go does not unwrap a response part).`,
  /** handleResumedToolRequest names an unanswered request `"#<ref>"`: it drops the tool's name when there is a ref. */
  unresolvedName: (request: { name: string; ref?: string }) => (request.ref ? `#${request.ref}` : request.name),
} as const;

/** The known genkit Go bugs a call shows. */
export const goBugNotes: BugNotes = ({ resolutions }) =>
  resolutions.filter((resolution) => resolution.replacedInput !== undefined).map((resolution) => GENKIT_GO_BUGS.replaceInputKeepsHistory(resolution.request.name));
