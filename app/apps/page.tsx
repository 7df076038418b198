import { AppsPage } from '@/components/apps-page';

export default function Page() {
  return <AppsPage />;
}
