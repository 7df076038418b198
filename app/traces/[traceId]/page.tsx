import { TracePage } from '@/components/trace-page';

export default async function Page(props: { params: Promise<{ traceId: string }>; searchParams: Promise<{ span?: string }> }) {
  const { traceId } = await props.params;
  const { span } = await props.searchParams;
  return <TracePage traceId={traceId} initialSpanId={span} />;
}
