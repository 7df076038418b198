import { RunPage } from '@/components/run-page';

export default async function Page(props: { params: Promise<{ runId: string }> }) {
  const { runId } = await props.params;
  return <RunPage runId={runId} />;
}
