import { getAppContext } from '@/lib/server/app-context';

export const dynamic = 'force-dynamic';

/** Scenarios and tools as the runner loaded them, with any load problems. */
export async function GET(): Promise<Response> {
  const { supervisor } = getAppContext();
  supervisor.start();
  await supervisor.whenReady(15_000);
  const { scenarios, tools, problems, state } = supervisor.status;
  return Response.json({ scenarios, tools, problems, runner: state });
}
