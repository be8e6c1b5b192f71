import { ClientMessages } from "@/platform/ui/layout/client-messages";
import { LanguageSwitcher } from "@/platform/ui/layout/language-switcher";
import { renderScene } from "@/features/scenes/ui/render-scene";
import { RichText } from "@/platform/ui/rich-text";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { projectorSceneOf, projectorState } from "@/features/play/server/projector-queries";
import { projectorImageUrl } from "@/features/play/server/projector-token";
import { ProjectorEnded, ProjectorView } from "./projector-view";
import "./projector.css";

/**
 * The classroom screen of a running session (no sign-in: the link's token is the key): the current
 * scene in large type, the timer and pause, and the answers when the teacher shows them. Nothing to
 * answer, no link anywhere; its images load through the link (features/play/server/projector-routes.ts). "This lesson
 * is over" once the session ends or the link is revoked.
 */
export async function ProjectorPage({ token }: { token: string }) {
  const [state, loaded, lang] = await Promise.all([
    projectorState(token),
    projectorSceneOf(token),
    getDisplayLanguage(),
  ]);
  const scene = loaded?.scene
    ? renderScene(loaded.scene, lang, { imageSrc: (id) => projectorImageUrl(token, id) })
    : null;
  return (
    <ClientMessages namespaces={["Common", "Language", "Errors", "Play", "Scenes", "Projector", "Game"]}>
      <main className="projector stack" data-testid="projector">
        <div className="row wrap projector-bar">
          {loaded ? (
            <h1>
              <RichText text={loaded.title} />
            </h1>
          ) : null}
          <span className="top-bar-spacer" />
          <LanguageSwitcher />
        </div>
        {state.status === "ended" || !loaded ? (
          <ProjectorEnded heading />
        ) : (
          <ProjectorView token={token} initialState={state} scene={scene} />
        )}
      </main>
    </ClientMessages>
  );
}
