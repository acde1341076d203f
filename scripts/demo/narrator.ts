/**
 * What the demo prints: each step in plain words with the seconds since the start, and the task's
 * progress. On a terminal the progress is a live bar (cli-progress) with the steps written above
 * it; anywhere else (CI, a pipe, a file) every progress value is one plain line, with no escape codes.
 */
import { MultiBar, Presets, type SingleBar } from "cli-progress";
import { styleText } from "node:util";

export interface Narrator {
  /** One step, in plain words. */
  say(text: string): void;
  /** Something went wrong: goes to stderr, after the bar is put away. */
  fail(text: string): void;
  progress(done: number, total: number, message?: string): void;
  /** Puts the bar away (and the cursor back); call before exiting. */
  stop(): void;
}

export function createNarrator(stream: NodeJS.WriteStream = process.stdout): Narrator {
  const started = performance.now();
  const stamp = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s`;
  const line = (text: string) => `${styleText("dim", stamp(), { stream })}  ${text}`;
  return stream.isTTY ? barNarrator(stream, line) : plainNarrator(stream, line);
}

function plainNarrator(stream: NodeJS.WriteStream, line: (text: string) => string): Narrator {
  return {
    say: (text) => stream.write(`${line(text)}\n`),
    fail: (text) => process.stderr.write(`${text}\n`),
    progress: (done, total, message) =>
      stream.write(`${line(`progress ${done}/${total}${message ? `: ${message}` : ""}`)}\n`),
    stop: () => undefined,
  };
}

function barNarrator(stream: NodeJS.WriteStream, line: (text: string) => string): Narrator {
  let bars: MultiBar | undefined;
  let bar: SingleBar | undefined;
  const stop = () => {
    bars?.update(); // MultiBar.stop drops lines logged since the last redraw: draw them first
    bars?.stop();
    bars = undefined;
    bar = undefined;
  };
  return {
    // MultiBar.log writes above the bar and redraws it; without a bar there is nothing to keep below.
    say: (text) => (bars ? bars.log(`${line(text)}\n`) : stream.write(`${line(text)}\n`)),
    fail: (text) => {
      stop();
      process.stderr.write(`${styleText("red", text, { stream: process.stderr })}\n`);
    },
    progress: (done, total, message) => {
      if (!bars) {
        bars = new MultiBar(
          {
            stream,
            format: "         {bar} {value}/{total} items  {message}",
            hideCursor: true,
            barsize: 30,
            clearOnComplete: false,
          },
          Presets.shades_classic,
        );
        bar = bars.create(total, 0, { message: "" });
      }
      bar?.setTotal(total);
      bar?.update(done, { message: message ?? "" });
    },
    stop,
  };
}
