import { TracePage } from '@/components/trace-page';

/** `/traces/{id}?node={nodeId}&tab=graph|spans` — the node and tab are linkable. */
export default async function Page(props: { params: Promise<{ traceId: string }>; searchParams: Promise<{ node?: string; tab?: string }> }) {
  const { traceId } = await props.params;
  const { node, tab } = await props.searchParams;
  return <TracePage traceId={traceId} initialNodeId={node} initialTab={tab === 'spans' ? 'spans' : 'graph'} />;
}
