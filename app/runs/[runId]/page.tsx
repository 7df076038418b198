import { RunPage } from '@/components/run-page';
import { tabFromUrl } from '@/components/workspace-tab';

export default async function Page(props: { params: Promise<{ runId: string }>; searchParams: Promise<{ node?: string; tab?: string }> }) {
  const { runId } = await props.params;
  const { node, tab } = await props.searchParams;
  return <RunPage runId={runId} initialNodeId={node} initialTab={tabFromUrl(tab)} />;
}
