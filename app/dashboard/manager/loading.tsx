import { GuardLoading } from "@/components/ui/guard-loading";

export default function Loading() {
  return <GuardLoading what="loadingUser" />;
}
