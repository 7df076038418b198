import { TracePage } from '@/components/trace-page';
import { tabFromUrl } from '@/components/workspace-tab';

/** A saved file opens as one session: all its traces in one graph. */
export default async function Page(props: { params: Promise<{ file: string }>; searchParams: Promise<{ node?: string; tab?: string }> }) {
  const { file } = await props.params;
  const { node, tab } = await props.searchParams;
  return <TracePage savedFile={decodeURIComponent(file)} initialNodeId={node} initialTab={tabFromUrl(tab)} />;
}
