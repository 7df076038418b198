import { TracePage } from '@/components/trace-page';
import { tabFromUrl } from '@/components/workspace-tab';

/** `/traces/{id}?node={nodeId}&tab=graph|spans` — the node and tab are linkable. */
export default async function Page(props: { params: Promise<{ traceId: string }>; searchParams: Promise<{ node?: string; tab?: string }> }) {
  const { traceId } = await props.params;
  const { node, tab } = await props.searchParams;
  return <TracePage traceId={traceId} initialNodeId={node} initialTab={tabFromUrl(tab)} />;
}
