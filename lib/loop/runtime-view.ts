/**
 * What the pages say and offer for a runtime, in its own words: a runtime contributes these
 * through its dialect (RuntimeDialect.view), so a page shows the right sentence or control without
 * ever asking which runtime it is looking at.
 */
export interface RuntimeView {
  /** A paused run's banner: what its calls wait for, in the runtime's terms. */
  pausedRun: string;
  /** A hint on the scenario cards of this runtime (how it runs). */
  scenarioHint?: string;
  /** A recorded model answer of this runtime can be replaced by a fork (the node detail offers it). */
  forksModelAnswers?: boolean;
  /** The workbench opens the next call's messages at once (they are the whole answer, not a `resume` payload). */
  showsNextMessages?: boolean;
}

/** Where a runtime says nothing of its own. */
export const PLAIN_RUNTIME_VIEW: RuntimeView = {
  pausedRun: 'The run is paused: its calls wait for an answer.',
};
