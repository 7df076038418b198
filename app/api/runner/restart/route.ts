import { getAppContext } from '@/lib/server/app-context';

export const dynamic = 'force-dynamic';

/** Replaces every runner process of the pool; runs in flight fail with the reason. */
export async function POST(): Promise<Response> {
  getAppContext().supervisor.restart('it was restarted from the page');
  return Response.json({ ok: true }, { status: 202 });
}
