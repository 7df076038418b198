'use client';
/**
 * The attached apps: each genkit runtime Loopscope found, its flows, tools, models and prompts;
 * a schema-generated form runs one (POST /api/runs {runtimeId, action, input}) and links to the
 * trace it recorded; a genkit JS app also gets a Generate form (its model, its tools, a prompt,
 * Run / Step / Breakpoints). An AI SDK app using `loopscope/ai-sdk` gets the mode its own calls
 * start in, and its latest calls. The app `loopscope start -- <cmd>` runs shows its state and last output.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import type { RunResponse } from '@/lib/contract/run-session';
import type { RunActionResponse, RunActionResult, RuntimeAction, RuntimesResponse } from '@/lib/contract/runtimes';
import { draftValue, emptyDraft, formFieldOf, type FormDraft, type FormProblem } from '@/lib/runtimes/genkit-reflection/input-form';
import { canGenerate } from '@/lib/runtimes/genkit-reflection/generate-form';
import { ActionResultView } from './action-result-view';
import { AiSdkAppSection } from './ai-sdk-app-section';
import { apiJson } from './api-client';
import { GenerateForm } from './generate-form';
import { SchemaFields } from './schema-form';
import { ATTACHED_KINDS } from '@/lib/runtimes/genkit-reflection/attached-kinds';

const RUNNABLE = new Set(['flow', 'tool', 'model', 'prompt', 'util']);

/** `steppable`: a flow of a genkit JS app with Loopscope's step plugin — its generates can be stepped from the run page. */
function ActionRunner({ runtimeId, action, steppable }: { runtimeId: string; action: RuntimeAction; steppable: boolean }) {
  const router = useRouter();
  const field = useMemo(() => formFieldOf(action.inputSchema), [action.inputSchema]);
  const [draft, setDraft] = useState<FormDraft>(() => emptyDraft(field));
  const [problems, setProblems] = useState<FormProblem[]>([]);
  const [result, setResult] = useState<RunActionResult | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [running, setRunning] = useState(false);
  const run = async (options: { step: boolean }) => {
    const checked = draftValue({ field, draft });
    setProblems(checked.problems);
    if (checked.problems.length > 0) return;
    setRunning(true);
    setFailure(undefined);
    try {
      const body = { runtimeId, action: action.key, input: checked.value };
      if (options.step) {
        // Its generates pause before every model call and tool; breakpoints can be set on the run page.
        const { run: started } = await apiJson<RunResponse>('/api/runs', { method: 'POST', body: { ...body, mode: { kind: 'step' } } });
        router.push(`/runs/${started.runId}`);
        return;
      }
      const answer = await apiJson<RunActionResponse>('/api/runs', { method: 'POST', body });
      setResult(answer.result);
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setRunning(false);
    }
  };
  return (
    <form
      className="action-runner"
      data-testid={`run-form-${action.key}`}
      onSubmit={(event) => {
        event.preventDefault();
        void run({ step: false });
      }}
    >
      <SchemaFields field={field} draft={draft} path="" onChange={setDraft} />
      {problems.length > 0 ? (
        <ul role="alert" className="problems">
          {problems.map((problem) => (
            <li key={problem.path}>{problem.message}</li>
          ))}
        </ul>
      ) : null}
      <button type="submit" disabled={running}>
        {running ? 'Running…' : `Run ${action.name}`}
      </button>
      {steppable ? (
        <button type="button" className="secondary" disabled={running} onClick={() => void run({ step: true })}>
          Step through {action.name}
        </button>
      ) : null}
      {failure ? <p role="alert">{failure}</p> : null}
      {result ? <ActionResultView result={result} /> : null}
    </form>
  );
}

export function AppsPage() {
  const [data, setData] = useState<RuntimesResponse | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [selected, setSelected] = useState<{ runtimeId: string; key: string } | undefined>();
  useEffect(() => {
    let stopped = false;
    const load = () =>
      apiJson<RuntimesResponse>('/api/runtimes').then(
        (answer) => !stopped && (setData(answer), setProblem(undefined)),
        (error: Error) => !stopped && setProblem(error.message),
      );
    void load();
    const timer = setInterval(load, 2_000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  return (
    <main className="apps-page">
      <h1>Your apps</h1>
      <p>
        <Link href="/">← Traces and scenarios</Link>
      </p>
      {problem ? <p role="alert">{problem}</p> : null}
      {data?.app ? (
        <section aria-labelledby="app-heading">
          <h2 id="app-heading">
            App: <code>{data.app.command.join(' ')}</code>
          </h2>
          <p data-testid="app-state">
            {data.app.state}
            {data.app.pid ? ` (pid ${data.app.pid})` : ''} · restarts: {data.app.restarts} · in <code>{data.app.cwd}</code>
          </p>
          <details>
            <summary>Output ({data.app.logs.length} lines)</summary>
            <pre className="app-logs">{data.app.logs.map((line) => `${line.stream === 'stderr' ? '! ' : ''}${line.text}`).join('\n')}</pre>
          </details>
        </section>
      ) : null}
      {data?.aiSdkApps?.map((app) => (
        <AiSdkAppSection
          key={app.name}
          app={app}
          onChanged={(changed) => setData((current) => (current ? { ...current, aiSdkApps: current.aiSdkApps?.map((each) => (each.name === changed.name ? changed : each)) } : current))}
        />
      ))}
      {data && data.runtimes.length === 0 && (data.aiSdkApps?.length ?? 0) === 0 ? (
        <p className="empty">
          No genkit app is attached, and no AI SDK app using <code>loopscope/ai-sdk</code> has talked to Loopscope. Start yours with <code>npx loopscope start -- &lt;command that starts it&gt;</code>
          {data.watching.length > 0 ? <> (watching {data.watching.join(', ')})</> : null}.
        </p>
      ) : null}
      {data?.runtimes.map((runtime) => (
        <section key={runtime.id} aria-label={`runtime ${runtime.name}`} data-testid="attached-runtime" data-runtime-id={runtime.id}>
          <h2>
            {runtime.name} <span className="hint">({runtime.runtime}, id {runtime.id})</span>
          </h2>
          {runtime.problem ? <p role="alert">{runtime.problem}</p> : null}
          {runtime.reflectionWarning ? (
            <p className="warning" data-testid="reflection-warning">
              {runtime.reflectionWarning}
            </p>
          ) : null}
          {ATTACHED_KINDS[runtime.runtime].stepPlugin && canGenerate(runtime.actions) ? <GenerateForm runtime={runtime} /> : null}
          <h3>Actions</h3>
          <ul className="action-list">
            {runtime.actions
              .filter((action) => RUNNABLE.has(action.type))
              .map((action) => {
                const open = selected?.runtimeId === runtime.id && selected.key === action.key;
                return (
                  <li key={action.key}>
                    <button type="button" className="secondary" aria-expanded={open} onClick={() => setSelected(open ? undefined : { runtimeId: runtime.id, key: action.key })}>
                      {action.type}: {action.name}
                    </button>
                    {action.description ? <span className="hint"> {action.description}</span> : null}
                    {open ? <ActionRunner runtimeId={runtime.id} action={action} steppable={action.type === 'flow' && ATTACHED_KINDS[runtime.runtime].stepPlugin && runtime.stepPlugin === true} /> : null}
                  </li>
                );
              })}
          </ul>
        </section>
      ))}
    </main>
  );
}
