/**
 * Step-by-step runs: run modes, pauses and the decisions that end them. Shared by the
 * runner, the server and the page (plain data + zod schemas for what crosses a boundary).
 */
import type { RunMode } from '../contract/run-mode';

// Run modes, pauses and decisions cross to the page: their schemas are part of the wire contract.
export { BreakpointsSchema, RunModeSchema, type Breakpoints, type RunMode } from '../contract/run-mode';
export { HandWrittenPartSchema, PauseDecisionSchema, type PauseAction, type PauseDecision, type PauseInfo } from '../contract/pause';

export function shouldPauseModel(mode: RunMode, modelTurn: number): boolean {
  if (mode.kind === 'step') return true;
  if (mode.kind !== 'breakpoints') return false;
  const turns = mode.breakpoints?.modelTurns ?? [];
  return turns === 'all' || turns.includes(modelTurn);
}

export function shouldPauseTool(mode: RunMode, toolName: string): boolean {
  if (mode.kind === 'step') return true;
  return mode.kind === 'breakpoints' && (mode.breakpoints?.tools ?? []).includes(toolName);
}
