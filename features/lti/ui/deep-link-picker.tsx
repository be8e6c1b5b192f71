"use client";

import { type ReactNode, useState } from "react";

export interface PickableActivity {
  id: string;
  title: ReactNode;
  /** The button's accessible name, as plain text. */
  label: string;
  /** The school's name (a manager picks across their academy's schools). */
  school: ReactNode | null;
}

/**
 * The deep linking picker's list: one submit button per activity in one plain form POST (works with the keyboard,
 * and without JavaScript); once a pick is sent the buttons wait and `sending` shows.
 */
export function DeepLinkPicker(props: {
  action: string;
  request: string;
  listLabel: string;
  sending: ReactNode;
  activities: PickableActivity[];
}) {
  const [sent, setSent] = useState(false);
  return (
    <form
      method="post"
      action={props.action}
      className="stack"
      aria-busy={sent}
      onSubmit={() => setSent(true)}
      data-testid="deep-link-picker"
    >
      <input type="hidden" name="request" value={props.request} />
      <ul className="stack" aria-label={props.listLabel} style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {props.activities.map((a) => (
          <li key={a.id}>
            <button
              type="submit"
              name="activity"
              value={a.id}
              className="button"
              aria-label={a.label}
              aria-disabled={sent}
              onClick={(e) => sent && e.preventDefault()}
              data-testid="deep-link-choice"
              data-activity={a.id}
              style={{ width: "100%", justifyContent: "flex-start", textAlign: "start" }}
            >
              <span>{a.title}</span>
              {a.school ? <span className="muted small"> · {a.school}</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {sent ? <div data-testid="deep-link-sending">{props.sending}</div> : null}
    </form>
  );
}
