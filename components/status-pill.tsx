/** Run and trace statuses in words. An interrupt is a pause — never shown as a failure; nor is a run the user stopped. */
const WORDS: Record<string, string> = {
  running: 'running…',
  interrupted: 'paused — waiting for an answer',
  answered: 'answered',
  finished: 'finished',
  ok: 'ok',
  failed: 'failed',
  stopped: 'stopped',
  error: 'failed',
  incomplete: 'in flight',
};

const CLASS: Record<string, string> = {
  running: 'running',
  interrupted: 'interrupted',
  answered: 'answered',
  finished: 'ok',
  ok: 'ok',
  failed: 'error',
  stopped: 'stopped',
  error: 'error',
  incomplete: 'running',
};

export function StatusPill(props: { status: string; testId?: string }) {
  return (
    <span className={`status-pill status-${CLASS[props.status] ?? 'running'}`} data-testid={props.testId} data-status={props.status}>
      {WORDS[props.status] ?? props.status}
    </span>
  );
}
