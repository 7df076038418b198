import { boundOptionalText, boundText, MESSAGE_MAX_CHARACTERS } from './bounded-text';
import type { SavedTraceFile } from '../spans/trace-index-rows';
import type { TraceSummary } from './summarize-trace';

/** Models a summary names at most; a trace calling more is listed with the first ones and how many more. */
export const MAX_LISTED_MODELS = 20;

/**
 * A trace summary with every span-derived string bounded (bounded-text.ts): its name, title,
 * service name, models (each, and how many) and error message. Applied once, where a trace
 * becomes a summary (the store's `summarize`), so the index rows, the lists, the search index
 * and the sessions built from them never carry a span's 30 MiB name. The link keys stay whole:
 * they are matched, never shown, and never leave the server.
 */
export function boundedSummary(summary: TraceSummary): TraceSummary {
  const models = summary.models.length > MAX_LISTED_MODELS ? [...summary.models.slice(0, MAX_LISTED_MODELS), `… ${summary.models.length - MAX_LISTED_MODELS} more models`] : summary.models;
  const bounded: TraceSummary = {
    ...summary,
    name: boundText(summary.name),
    models: models.map((model) => boundText(model)),
  };
  // Optional fields stay absent when they were (the index rows are compared and stored as JSON).
  if (summary.title !== undefined) bounded.title = boundText(summary.title);
  if (summary.serviceName !== undefined) bounded.serviceName = boundOptionalText(summary.serviceName);
  if (summary.errorMessage !== undefined) bounded.errorMessage = boundOptionalText(summary.errorMessage, MESSAGE_MAX_CHARACTERS);
  return bounded;
}

/** A saved file's list row with its span- and file-derived strings bounded: name, description, error. */
export function boundedSavedFile(entry: SavedTraceFile): SavedTraceFile {
  const bounded: SavedTraceFile = { ...entry, name: boundText(entry.name) };
  if (entry.description !== undefined) bounded.description = boundText(entry.description, MESSAGE_MAX_CHARACTERS);
  if (entry.error !== undefined) bounded.error = boundText(entry.error, MESSAGE_MAX_CHARACTERS);
  return bounded;
}
