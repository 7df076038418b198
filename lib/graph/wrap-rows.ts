import type { NodePosition } from './layout-run-graph';

/** Space between two wrapped rows, in graph units (the layout's own rank gap is 56). */
export const ROW_GAP = 64;

/**
 * Folds a left-to-right layout into rows no wider than `maxRowWidth`, like lines of text:
 * the columns (nodes sharing a left edge — one rank of the layout) are kept whole and in order,
 * each row starts at the left margin, and rows stack top to bottom with `ROW_GAP` between
 * them. A long loop then opens readable — its first and last nodes on one screen — instead of
 * as a strip shrunk to fit. A column wider than the limit gets a row of its own. Pure.
 */
export function wrapIntoRows(positions: ReadonlyMap<string, NodePosition>, maxRowWidth: number): Map<string, NodePosition> {
  if (positions.size === 0) return new Map(positions);
  const columns = new Map<number, string[]>();
  for (const [id, position] of positions) {
    const column = columns.get(position.x);
    if (column) column.push(id);
    else columns.set(position.x, [id]);
  }
  const lefts = [...columns.keys()].sort((a, b) => a - b);
  const margin = lefts[0];
  const right = (left: number) => Math.max(...columns.get(left)!.map((id) => left + positions.get(id)!.width));

  // Greedy, as text wraps: a column goes on the current row while the row stays narrow enough.
  const rows: number[][] = [];
  for (const left of lefts) {
    const row = rows.at(-1);
    if (row && right(left) - row[0] <= maxRowWidth) row.push(left);
    else rows.push([left]);
  }
  if (rows.length === 1) return new Map(positions);

  const wrapped = new Map<string, NodePosition>();
  let top = Math.min(...[...positions.values()].map((position) => position.y));
  for (const row of rows) {
    const ids = row.flatMap((left) => columns.get(left)!);
    const rowTop = Math.min(...ids.map((id) => positions.get(id)!.y));
    const rowBottom = Math.max(...ids.map((id) => positions.get(id)!.y + positions.get(id)!.height));
    const shiftX = row[0] - margin;
    for (const id of ids) {
      const position = positions.get(id)!;
      wrapped.set(id, { ...position, x: position.x - shiftX, y: position.y - rowTop + top });
    }
    top += rowBottom - rowTop + ROW_GAP;
  }
  return wrapped;
}
