/**
 * What a model reads about a task's partial output (docs/partial-results.md): `task_status` gives
 * the newest pieces in words, with how many came before; the "Still running" fallback says there is
 * output so far and where to read it. Kept apart from task-sentences.ts, whose sentences it extends.
 */
import { plainText } from "../core";
import type { TaskSnapshot } from "../core";
import type { Sentences } from "./task-sentences";

type Seen = Pick<TaskSnapshot, "partial">;

const pieces = (count: number): string => (count === 1 ? "1 piece" : `${count} pieces`);

/** ' The newest: 6. "…" 7. "…" (5 earlier pieces.)', or "" when the task has published nothing. */
export function newestPiecesPhrase(snapshot: Seen): string {
  const partial = snapshot.partial;
  if (!partial || partial.pieces === 0) return "";
  const newest = partial.newest.map(({ n, text }) => `${n}. "${plainText(text)}"`).join(" ");
  const before = partial.pieces - partial.newest.length;
  const earlier = before > 0 ? ` (${pieces(before)} came before; read the task resource for all of them.)` : "";
  return ` Output so far, ${pieces(partial.pieces)}; the newest: ${newest}${earlier}`;
}

/** task_status: its sentences with the newest pieces after the summary. */
export function withNewestPieces(sentences: Sentences, snapshot: Seen): Sentences {
  const phrase = newestPiecesPhrase(snapshot);
  return phrase ? { ...sentences, summary: `${sentences.summary}${phrase}` } : sentences;
}

/** The fallback of a plain call: it says there is output so far, and task_status shows it. */
export function withOutputSoFar(sentences: Sentences, snapshot: Seen): Sentences {
  const count = snapshot.partial?.pieces ?? 0;
  if (count === 0) return sentences;
  const newest = snapshot.partial?.newest.at(-1);
  const latest = newest ? ` (the newest: "${plainText(newest.text)}")` : "";
  const summary = `${sentences.summary} It has output so far: ${pieces(count)}${latest}; task_status shows the newest.`;
  return { ...sentences, summary };
}
