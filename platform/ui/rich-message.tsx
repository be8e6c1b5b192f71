import { Fragment, type ReactNode } from "react";
import { RichText } from "./rich-text";

/** Placeholder value for a slot: pass it to t(), then give the node in `slots`. */
export const SLOT = "\u0000";

/**
 * A translated message with rich-text markup and React nodes in its
 * placeholders (names, counts): the data never passes through the markup parser.
 */
export function RichMessage({ text, slots }: { text: string; slots: ReactNode[] }) {
  const parts = text.split(SLOT);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          <RichText text={part} />
          {i < parts.length - 1 ? slots[i] : null}
        </Fragment>
      ))}
    </>
  );
}
