import { getAppContext } from '@/lib/server/app-context';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return Response.json({ runner: getAppContext().supervisor.status });
}
