import { expect } from 'vitest';
import type { NodePosition } from '../layout-run-graph';

/** Fails naming the first two node boxes that overlap. */
export function expectNoOverlap(positions: ReadonlyMap<string, NodePosition>): void {
  const boxes = [...positions.entries()];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, first] = boxes[i];
      const [b, second] = boxes[j];
      const apart = first.x + first.width <= second.x || second.x + second.width <= first.x || first.y + first.height <= second.y || second.y + second.height <= first.y;
      expect(apart, `${a} overlaps ${b}`).toBe(true);
    }
  }
}
