/**
 * The open `events/stream`s of one event log, in its object's memory: who holds how many (each
 * principal's are bounded), and the long polls waiting for the next append. An evicted object forgets
 * both; a stream then counts again from its next call, and its waiting poll ends and is made again.
 */
export class StreamWaiters {
  private readonly open_ = new Map<string, Set<string>>();
  private waiting: (() => void)[] = [];

  open(principal: string, token: string, max: number): boolean {
    const held = this.open_.get(principal) ?? new Set<string>();
    if (!held.has(token) && held.size >= max) return false;
    held.add(token);
    this.open_.set(principal, held);
    return true;
  }

  close(principal: string, token: string): void {
    const held = this.open_.get(principal);
    held?.delete(token);
    if (held?.size === 0) this.open_.delete(principal);
  }

  wait(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((wake) => wake !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiting.push(done);
    });
  }

  wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}
