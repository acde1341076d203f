/**
 * Words a task shows people and models, without control bytes (docs/partial-results.md, "Words"):
 * a piece, a progress or log message, a question, a status message become sentences that clients
 * print, some on terminals, where ESC and other C0/C1 bytes would act instead of being read.
 */

/** Terminal escape sequences, dropped whole (CSI, OSC, and ESC + one byte), so no "[31m" is left behind. */
const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is what this is for
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]/g;
/** Every C0 and C1 control and DEL, except newline and tab (kept or turned into spaces below). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is what this is for
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is what this is for
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * `text` with its control bytes removed. `lines: true` keeps newlines (a surface that shows
 * several lines: a question's message, a text block); otherwise newlines and tabs become spaces,
 * for one-line words (a status message, a progress message, a piece quoted in a sentence).
 */
export function plainText(text: string, options: { lines?: boolean } = {}): string {
  if (!ANY_CONTROL.test(text)) return text; // the usual case: nothing to copy
  const kept = text.replace(ESCAPES, "").replace(/\r\n?/g, "\n").replace(CONTROLS, "");
  return options.lines ? kept : kept.replace(/[\t\n]/g, " ");
}
