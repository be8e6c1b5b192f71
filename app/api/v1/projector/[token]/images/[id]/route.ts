import { projectorImage } from "@/features/play/server/projector-routes";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ token: string; id: string }> }) {
  const { token, id } = await params;
  return projectorImage(req, token, id);
}
