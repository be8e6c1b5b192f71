"use client";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import {
  GAME_PODIUM,
  type GameBoard,
  type GameState,
  type GameStanding,
  type GameTeam,
  type Nickname,
} from "@/features/play/shared/game";
import type { useConfirm } from "@/platform/ui/confirm-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { postGameView } from "./advance-scene";
import { SessionToggle } from "./session-toggle";
import "./game.css";
import type { useActionRunner } from "@/platform/ui/use-action-runner";

/** A session's game settings chosen at the start: null (an ordinary lesson), or teams and names. */
export type GameChoice = { teams: boolean; names: boolean } | null;

/** 「ゲームモード」 (off unless ticked) and, when on, 「チーム戦」 and 「名前を表示」: beside the start button. */
export function GameStartChoice({ value, onChange }: { value: GameChoice; onChange: (value: GameChoice) => void }) {
  const t = useTranslations("Game");
  const box = (testId: string, label: string, checked: boolean, set: (on: boolean) => void, note?: string) => (
    <label className="row game-choice">
      <input type="checkbox" data-testid={testId} checked={checked} onChange={(e) => set(e.target.checked)} />
      <span>
        <RichTextClient text={label} />
        {note ? (
          <small className="muted">
            {" "}
            <RichTextClient text={note} />
          </small>
        ) : null}
      </span>
    </label>
  );
  return (
    <div className="stack game-start" data-testid="game-choice">
      {box(
        "game-mode",
        t("mode"),
        value !== null,
        (on) => onChange(on ? { teams: false, names: false } : null),
        t("modeNote"),
      )}
      {value ? (
        <div className="row wrap">
          {box("game-teams", t("teams"), value.teams, (teams) => onChange({ ...value, teams }), t("teamsNote"))}
          {box("game-names", t("showNames"), value.names, (names) => onChange({ ...value, names }))}
        </div>
      ) : null}
    </div>
  );
}

type GuideRef = { activityId: string; schoolId?: string; sessionId?: string };

/**
 * A game session's controls between questions: the leaderboard and the podium on the projector (each on/off,
 * aria-pressed; showing one replaces the other) and the players' names (showing them is confirmed). Nothing for an
 * ordinary lesson (`game` null).
 */
export function GameControls({
  game,
  guideRef,
  pending,
  run,
  confirm,
}: {
  game: GameState | null;
  guideRef: GuideRef;
  pending: boolean;
  run: ReturnType<typeof useActionRunner>["run"];
  confirm: ReturnType<typeof useConfirm>["confirm"];
}) {
  const t = useTranslations("Game");
  const tp = useTranslations("Play");
  if (!game) return null;
  const send = (view: { board?: GameState["board"]; names?: boolean }) => {
    const { activityId, ...ref } = guideRef;
    return run(() => postGameView(activityId, { ...ref, ...view }), { failure: tp("guideFailed") });
  };
  const toggle = (testId: string, on: boolean, label: string, onClick: () => unknown) => (
    <SessionToggle testId={testId} on={on} label={label} pending={pending} onClick={onClick} />
  );
  return (
    <div className="row wrap guide-bar" data-testid="game-controls">
      <span className="badge">
        <RichTextClient text={t("gameOn")} />
      </span>
      {toggle(
        "game-ranking",
        game.board === "ranking",
        game.board === "ranking" ? t("hideRanking") : t("showRanking"),
        () => send({ board: game.board === "ranking" ? null : "ranking" }),
      )}
      {toggle("game-podium", game.board === "podium", game.board === "podium" ? t("hidePodium") : t("showPodium"), () =>
        send({ board: game.board === "podium" ? null : "podium" }),
      )}
      {toggle("game-show-names", game.names, game.names ? t("hideNames") : t("showNames"), async () => {
        if (game.names) return send({ names: false });
        if (await confirm({ title: t("showNames"), body: t("namesConfirm"), confirm: t("showNames") }))
          send({ names: true });
      })}
    </div>
  );
}

/** A player's nickname in the display language: an animal and a number. */
export function useNickname() {
  const t = useTranslations("Game");
  return (n: Nickname) => t("nickname", { animal: t(`animals.${n.animal}` as "animals.0"), number: n.number });
}

function TeamName({ team }: { team: GameTeam }) {
  const t = useTranslations("Game");
  return (
    <RichTextClient
      text={
        team.klass
          ? t("classTeam", { grade: team.klass.grade, className: team.klass.className })
          : t("groupTeam", { group: team.group ?? "" })
      }
    />
  );
}

/** One row of the leaderboard: rank, who (a player or a team), points; the top three players marked. */
function GameRow({
  testId,
  rank,
  points,
  top = false,
  children,
}: {
  testId: string;
  rank: number;
  points: number;
  top?: boolean;
  children: ReactNode;
}) {
  const t = useTranslations("Game");
  return (
    <li className={top ? `game-row game-rank-${Math.min(rank, 4)}` : "game-row"} data-testid={testId}>
      <span className="game-rank">
        <RichTextClient text={t("rank", { rank })} />
      </span>
      <span className="game-name">{children}</span>
      <span className="game-points">
        <RichTextClient text={t("points", { points })} />
      </span>
    </li>
  );
}

/** The projector's leaderboard (the top players, team totals in team mode) or podium (the top three). */
export function GameBoardPanel({ board }: { board: GameBoard }) {
  const t = useTranslations("Game");
  const nickname = useNickname();
  const podium = board.view === "podium";
  const players = podium ? board.top.filter((p) => p.rank <= GAME_PODIUM) : board.top;
  return (
    <section className={`card stack game-board game-${board.view}`} data-testid="game-board" data-view={board.view}>
      <div className="row wrap game-board-head">
        <h2>
          <RichTextClient text={podium ? t("podium") : t("ranking")} />
        </h2>
        <span className="muted">
          <RichTextClient text={t("players", { count: board.players })} />
        </span>
      </div>
      {players.length === 0 ? (
        <p className="empty">
          <RichTextClient text={t("nobody")} />
        </p>
      ) : (
        <div className={board.teams && !podium ? "game-board-split" : undefined}>
          <ol className="bare-list game-players" data-testid="game-players">
            {players.map((p, i) => (
              <GameRow key={i} testId="game-player" rank={p.rank} points={p.points} top>
                <span data-testid="game-player-name">{p.name ?? <RichTextClient text={nickname(p.nickname)} />}</span>
              </GameRow>
            ))}
          </ol>
          {board.teams && !podium ? (
            <ol className="bare-list game-players game-teams" data-testid="game-teams" aria-label={t("teamsTitle")}>
              {board.teams.map((team, i) => (
                <GameRow key={i} testId="game-team" rank={team.rank} points={team.points}>
                  <TeamName team={team} />
                </GameRow>
              ))}
            </ol>
          ) : null}
        </div>
      )}
    </section>
  );
}

/**
 * A student's own points and rank while the teacher shows the leaderboard or the podium, as their stream carries it
 * (`standing`: their own row only, nobody else's name or points reach the device); their team's and their podium
 * place too.
 */
export function GameStandingCard({ game, standing }: { game: GameState | null; standing: GameStanding | null }) {
  const t = useTranslations("Game");
  const nickname = useNickname();
  if (!game?.board || !standing) return null;
  return (
    <section className="card stack game-standing" role="status" data-testid="game-standing">
      {game.board === "podium" && standing.podium !== null ? (
        <p className="game-standing-main" data-testid="game-standing-podium" data-place={standing.podium}>
          <RichTextClient text={t("yourPodium", { place: standing.podium })} />
        </p>
      ) : null}
      <p
        className="game-standing-main"
        data-testid="game-standing-rank"
        data-rank={standing.rank}
        data-points={standing.points}
      >
        <RichTextClient
          text={t("yourStanding", { rank: standing.rank, players: standing.players, points: standing.points })}
        />
      </p>
      {game.teams && standing.team ? (
        <p data-testid="game-standing-team" data-rank={standing.team.rank} data-points={standing.team.points}>
          <RichTextClient
            text={t("yourTeam", { rank: standing.team.rank, teams: standing.team.teams, points: standing.team.points })}
          />
        </p>
      ) : null}
      <p className="muted">
        <RichTextClient text={t("yourNickname", { nickname: nickname(standing.nickname) })} />
      </p>
    </section>
  );
}
