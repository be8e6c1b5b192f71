import { projectorStateRoute } from "@/features/play/server/projector-routes";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, { params }: { params: Promise<{ token: string }> }) {
  return projectorStateRoute((await params).token);
}
