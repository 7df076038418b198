import type { NodePosition } from './layout-run-graph';

/** The smallest zoom a graph opens at: node labels (12 px) stay at or above ~10 px, titles above 11 px. */
export const READABLE_ZOOM = 0.8;

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/**
 * Where a graph opens: all of it — centred across, from the top down (under the legend, where
 * the eye starts) — when it fits the pane at a readable zoom (never enlarged past 1); otherwise at the readable zoom with its top-left corner — the first call —
 * in view (the user pans to the rest; the minimap shows where they are). `fits` says which.
 * Pure: positions in graph units, pane in screen pixels.
 */
export function openingViewport(options: {
  positions: Iterable<NodePosition>;
  pane: { width: number; height: number };
  /** Screen pixels kept free around the graph. */
  padding?: number;
}): Viewport & { fits: boolean } {
  const { pane, padding = 24 } = options;
  const boxes = [...options.positions];
  if (boxes.length === 0 || pane.width <= 0 || pane.height <= 0) return { x: 0, y: 0, zoom: 1, fits: true };
  const minX = Math.min(...boxes.map((box) => box.x));
  const minY = Math.min(...boxes.map((box) => box.y));
  const width = Math.max(...boxes.map((box) => box.x + box.width)) - minX;
  const height = Math.max(...boxes.map((box) => box.y + box.height)) - minY;
  const fitZoom = Math.min((pane.width - 2 * padding) / width, (pane.height - 2 * padding) / height);
  if (fitZoom >= READABLE_ZOOM) {
    const zoom = Math.min(1, fitZoom);
    return { x: (pane.width - width * zoom) / 2 - minX * zoom, y: padding - minY * zoom, zoom, fits: true };
  }
  const zoom = READABLE_ZOOM;
  // Centred across when the width fits; from the left edge when it does not; always from the top.
  const x = width * zoom <= pane.width - 2 * padding ? (pane.width - width * zoom) / 2 - minX * zoom : padding - minX * zoom;
  const y = padding - minY * zoom;
  return { x, y, zoom, fits: false };
}

/** The widest row, in graph units, that still fits a pane `paneWidth` pixels wide at the readable zoom. */
export function rowWidthFor(paneWidth: number, padding = 24): number {
  return (paneWidth - 2 * padding) / READABLE_ZOOM;
}
