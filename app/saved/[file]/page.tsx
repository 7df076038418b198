import { TracePage } from '@/components/trace-page';

export default async function Page(props: { params: Promise<{ file: string }> }) {
  const { file } = await props.params;
  return <TracePage savedFile={decodeURIComponent(file)} />;
}
