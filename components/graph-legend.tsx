import { TONE_COLOURS } from './run-flow-elements';

/** What the graph's colours and dashes mean, and its keys. */
export function GraphLegend() {
  const items: [string, string][] = [
    ['ok', 'ran and finished'],
    ['interrupted', 'paused — waiting for an answer'],
    ['answered', 'an answer: respond, restart, approve, deny, a value'],
    ['error', 'failed'],
    ['running', 'running'],
  ];
  return (
    <div className="graph-legend" aria-label="Legend" data-testid="graph-legend">
      {items.map(([tone, words]) => (
        <span key={tone}>
          <i style={{ background: TONE_COLOURS[tone] }} /> {words}
        </span>
      ))}
      <span>
        <i className="dashed" /> pause → the answer that resumed it
      </span>
      <span className="keys">←/→ move between nodes · Enter expands collapsed rounds</span>
    </div>
  );
}

