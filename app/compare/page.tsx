import { ComparePage } from '@/components/compare-page';

export default function Page() {
  return <ComparePage />;
}
