/**
 * The names release 0.1 gave a job's sleeps, fan-outs and publishes: the position of the last
 * step to start or finish, and a count since then. Kept so a task that 0.1 recorded and that is
 * still running finds what it stored (its replays run one step at a time, as 0.1 needed); new
 * tasks are named by durable-names.ts. Drop with the storage schema that marks 0.1's tasks.
 */
export class LegacyNames {
  private position = "start";
  private readonly counts = { sleep: 0, fanout: 0, publish: 0 };

  moveTo(next: string): void {
    this.position = next;
    this.counts.sleep = 0;
    this.counts.fanout = 0;
    this.counts.publish = 0;
  }

  /** 0.1's key of the next call of `kind`: `<position>#n` (a fan-out's with its `fanout:` prefix, as its tables keep it). */
  next(kind: "sleep" | "fanout" | "publish"): string {
    this.counts[kind] += 1;
    const at = `${this.position}#${this.counts[kind]}`;
    return kind === "fanout" ? `fanout:${at}` : at;
  }
}
